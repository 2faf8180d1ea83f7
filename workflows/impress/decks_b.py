"""Deck scenarios for the Impress content generator (part 2: project status, marketing, security, budget).

Pure data, same conventions as `workflows.impress.decks_a`.
"""

from __future__ import annotations

from workflows.impress.decks_a import DeckDef, S

DEPARTMENTS = ("Sales", "Marketing", "Operations", "Engineering", "Finance", "Human Resources", "IT", "Legal")

DECKS_B = (
    DeckDef(
        name="project_status",
        titles=("Project {project} Status Update", "{project} Steering Committee", "{project} Monthly Report"),
        subtitles=("Reporting period {month} {year}", "Steering committee, {day}", "PMO update by {person1}"),
        stems=("{project_slug}_status_{month_slug}", "project_{project_slug}_update", "steerco_{project_slug}"),
        slides=(
            S("Executive Summary|Status at a Glance", "Overall status is amber; "
              "Scope is on track, schedule slipped two weeks; Budget spent to date is {pct2} of plan; "
              "Data migration finished ahead of plan; Vendor delivery for phase two is late; "
              "Go-live date is still {day}; Decision needed on the reporting scope",
              "Start with the amber status and why.|Keep the summary to one minute."),
            S("Milestone Tracker|Milestones", "Requirements sign-off completed; "
              "System design approved by the architecture board; Build phase is {pct3} complete; "
              "User acceptance testing starts in {month}; Training materials in draft; "
              "Cutover rehearsal planned for week 12; Hypercare support runs for four weeks",
              "Walk through the milestones in order.|Highlight the testing start date."),
            S("Budget and Spend|Budget Status", "Approved budget of {money1}; Spent {money3} to date; "
              "Forecast at completion within five percent; Contractor rates rose in the last quarter; "
              "Hardware costs came in under estimate; Contingency reserve still untouched; "
              "Change requests added two weeks of effort",
              "Finance has reviewed these numbers.|Mention the untouched contingency."),
            S("Top Risks|Risks and Issues", "Key vendor resources shared with another client; "
              "Test environment availability is limited; Legacy data quality issues in customer records; "
              "Business users have little time for testing; Integration with the billing system is complex; "
              "Mitigation: weekly vendor checkpoint; Issue log has {hires} open items",
              "Ask the sponsor for help with tester availability.|Vendor risk is the biggest one."),
            S("Progress by Workstream|Workstream Updates", "Data: migration scripts tested on full volume; "
              "Integration: three of five interfaces done; Reporting: dashboards in review; "
              "Training: trainer guides drafted; Infrastructure: production servers provisioned; "
              "Security: penetration test booked; Change management: champion network formed",
              "Each lead can add one sentence.|Skip workstreams that are green."),
            S("Scope Changes|Change Requests", "CR-14 adds an approval step for refunds; "
              "CR-15 removes the legacy export feature; CR-16 moves reporting to phase two; "
              "Each change was assessed for cost and time; Two requests are waiting for sponsor approval; "
              "No change affects the go-live date so far; Change board meets every second Tuesday",
              "CR-16 needs a decision today.|Change log is on the project site."),
            S("Team and Resourcing|Resourcing", "Project team of {hires} people across four teams; "
              "Two testers join from the {city} office; Business analyst role still open; "
              "Vendor adds a second developer in {month}; Overtime is limited to the cutover weekend; "
              "Subject matter experts booked for testing; Team morale is good according to the pulse survey",
              "Ask for help filling the analyst role.|Mention the pulse survey result."),
            S("Decisions Needed|Decisions for the Steering Committee", "Approve extra budget for performance testing; "
              "Confirm the go-live window; Agree to move reporting to phase two; "
              "Nominate a business owner for data quality; Approve the training rollout plan; "
              "Decide on the legacy system retirement date; Confirm the communication plan",
              "Record each decision in the minutes.|Do not leave without the go-live decision."),
            S("Plan for Next Month|Next Steps", "Finish the integration build; Start user acceptance testing; "
              "Run the first cutover rehearsal; Publish the training schedule; Close the open security findings; "
              "Report back at the next steering committee; Update the risk register weekly",
              "Owners are listed in the project plan.|Confirm the next meeting date."),
            S("Lessons Learned|Lessons So Far", "Involve business users from day one; "
              "Lock the test environment schedule early; Keep the change board small; "
              "Share status in writing every week; Budget for data cleanup up front; "
              "Agree on definitions of done; Celebrate milestones with the team",
              "Invite the committee to add lessons.|These go into the PMO playbook."),
        ),
        table_titles=("Milestone Status", "Milestone Table"),
        table_header=("Milestone", "Owner", "Due Date", "Status"),
        table_labels=("Design sign-off", "Build complete", "Data migration", "User testing", "Training", "Go-live",
                      "Hypercare"),
        table_columns=("person", "date", ("Done", "On track", "At risk", "Delayed")),
        images=("project_logo", "burndown_chart", "pmo_badge"),
    ),
    DeckDef(
        name="marketing_plan",
        titles=("{year} Marketing Plan", "Marketing Strategy {year}", "{company} Brand and Demand Plan"),
        subtitles=("Marketing Team", "Planning offsite, {month}", "Presented by {person1}"),
        stems=("marketing_plan_{year}", "{company_slug}_marketing", "demand_plan_{year}"),
        slides=(
            S("Marketing Goals|Goals for the Year", "Grow qualified leads by {pct1}; "
              "Raise brand awareness in {region}; Cut cost per lead by {pct4}; Launch two flagship campaigns; "
              "Double webinar attendance; "
              "Support {count1} sales meetings per quarter; Build a customer advocacy program",
              "Goals were agreed with sales last month.|Lead with the pipeline goal."),
            S("Target Audience|Who We Are Targeting", "Heads of operations in mid-size companies; "
              "IT leaders evaluating new platforms; Finance teams planning budgets; "
              "Existing customers ready to expand; Partners reselling our products; "
              "Industry analysts and press; Early-career professionals",
              "Personas are in the appendix.|Ask sales whether the list feels right."),
            S("Marketing Channels|Channel Mix", "Search advertising for high-intent keywords; "
              "LinkedIn campaigns for decision makers; Monthly newsletter to customers and prospects; "
              "Webinars every second month; Trade shows in {city} and abroad; Partner co-marketing; "
              "Podcast sponsorships in our niche",
              "Search and LinkedIn get most of the money.|Podcasts are a small test."),
            S("Content Plan|Content Calendar", "Two blog posts per week; One customer story per month; "
              "Quarterly industry report; Short product videos for each release; "
              "E-book on workflow automation; Infographics for social media; Guest articles in trade publications",
              "The calendar lives in the shared planner.|Writers need topics two weeks ahead."),
            S("Flagship Campaigns|Campaign Highlights", "Spring campaign: Work Smarter, Not Longer; "
              "Autumn campaign focused on {product}; Customer summit in {city} in {month}; "
              "Referral program for existing customers; Free assessment offer for new prospects; "
              "Holiday giveaway for newsletter readers; Award submissions for our best projects",
              "Show the spring campaign mock-ups.|The summit date is still tentative."),
            S("Marketing Budget|Budget Allocation", "Total budget of {money2}; "
              "Digital advertising takes {pct3} of spend; Events and sponsorships; "
              "Content production and design; Marketing tools and software; Agency fees for the rebrand; "
              "Reserve of ten percent for experiments",
              "Finance approved the total last week.|Explain the experiment reserve."),
            S("Key Performance Indicators|Measurement", "Marketing qualified leads per month; "
              "Cost per lead by channel; Website conversion rate; Pipeline influenced by marketing; "
              "Email open and click rates; Share of voice against competitors; "
              "Event attendance and follow-up meetings",
              "Dashboards update every Monday.|Agree which three KPIs go to the board."),
            S("Brand Refresh|Brand Update", "New logo rolls out in {month}; Updated color palette and fonts; "
              "Website redesign goes live next quarter; Brand guidelines shared with all teams; "
              "Templates for slides and documents; Photography style with real customers; "
              "Partners receive an updated brand kit",
              "Do not share the new logo outside the company yet.|Show the before and after."),
            S("Team Structure|Team and Agencies", "Content team of four writers; Two demand generation managers; "
              "Design agency on a yearly retainer; Freelance video producer; "
              "Marketing operations owns the CRM data; Regional marketers in {region} and {region2}; "
              "Interns support social media",
              "One open role in marketing operations.|Introduce the new agency contact."),
            S("Quarterly Roadmap|Timeline", "Q1: brand refresh and website; Q2: spring campaign and webinars; "
              "Q3: customer summit; Q4: autumn campaign and planning; Monthly reviews with sales leadership; "
              "Mid-year budget check; Annual results shared in January",
              "Dates may move with the product roadmap.|Ask for feedback by the end of the week."),
        ),
        table_titles=("Spend by Channel", "Channel Budget"),
        table_header=("Channel", "Budget", "Leads", "Cost per Lead"),
        table_labels=("Search ads", "LinkedIn", "Events", "Webinars", "Email", "Content", "Partners"),
        table_columns=("money", "int", "price"),
        images=("brand_logo", "leads_chart", "campaign_badge"),
    ),
    DeckDef(
        name="security_training",
        titles=("Security Awareness Training", "Staying Safe Online at {company}", "Information Security Basics"),
        subtitles=("Annual mandatory training {year}", "IT Security Team", "Presented by {person1}"),
        stems=("security_awareness_{year}", "infosec_training", "security_basics_{month_slug}"),
        slides=(
            S("Why Security Matters|Why This Matters", "Most breaches start with a human mistake; "
              "Phishing attempts rose {pct1} last year; One stolen password can expose customer data; "
              "Fines for data breaches can be severe; Security is part of every job; "
              "Fast reporting limits the damage; This training is required every year",
              "Open with the recent phishing statistics.|Keep the tone positive, not scary."),
            S("Phishing Warning Signs|Spotting Phishing", "Urgent requests to pay or click; "
              "Sender address that does not match the name; Links that point to unknown websites; "
              "Unexpected attachments; Requests for passwords or codes; Spelling mistakes and odd greetings; "
              "Offers that seem too good to be true",
              "Show the three example emails.|Ask the group to spot the signs first."),
            S("Password Rules|Strong Passwords", "Use at least 14 characters; "
              "Use a passphrase of four random words; Never reuse work passwords elsewhere; "
              "Store passwords in the company password manager; Turn on two-factor authentication; "
              "Change a password at once if it may be exposed; Never share passwords, even with IT",
              "Demo the password manager.|Mention that IT will never ask for a password."),
            S("Data Classification|Handling Data", "Public data can be shared freely; "
              "Internal data stays inside the company; Confidential data needs encryption; "
              "Restricted data needs approval to access; Label documents with their class; "
              "Shred printed confidential papers; Delete data you no longer need",
              "Give one example document for each class.|Refer to the data policy."),
            S("Remote Work Safety|Working Remotely", "Always connect through the VPN; "
              "Lock your screen when you step away; Avoid public Wi-Fi without the VPN; "
              "Keep work and personal devices separate; Do not let family members use work laptops; "
              "Use privacy screens when traveling; Report lost devices straight away",
              "Most staff work remotely two days a week.|Ask who has a privacy screen."),
            S("How to Report|Reporting Incidents", "Use the Report Phish button in email; "
              "Call the security hotline for urgent cases; Write down what happened and when; "
              "Do not try to investigate yourself; Disconnect the device from the network if asked; "
              "Reports are welcome even when unsure; No one is blamed for reporting in good faith",
              "Show where the Report Phish button is.|Repeat that reporting is never punished."),
            S("Social Engineering|Manipulation Tactics", "Callers pretending to be IT support; "
              "Fake delivery notices by text message; Visitors tailgating through secure doors; "
              "Fake invoices from known suppliers; Requests from a spoofed executive account; "
              "Always verify through a known channel; Take your time when pressured",
              "Tell the fake invoice story from last year.|Pressure is the main warning sign."),
            S("Office Security|Physical Security", "Wear your badge at all times; Escort visitors in secure areas; "
              "Keep desks clear at the end of the day; Lock cabinets that hold confidential files; "
              "Do not prop open fire doors; Collect printouts immediately; "
              "Report unknown people in restricted areas",
              "Facilities joins for questions on badges.|Clear desk checks start next month."),
            S("Keeping Devices Updated|Software and Updates", "Install updates when prompted; "
              "Only use approved software; Do not disable antivirus; Restart your laptop at least once a week; "
              "Browser extensions need IT approval; Mobile devices must run a supported version; "
              "Old devices are returned to IT for wiping",
              "Updates fix most known attacks.|Show the approved software catalog."),
            S("Completing the Training|Quiz and Completion", "Complete the quiz with a score of 80 or more; "
              "Deadline for completion is {day}; Certificates appear in the learning portal; "
              "Managers see team completion rates; Phishing simulations run every quarter; "
              "Questions go to the security team mailbox; Thank you for keeping {company} safe",
              "Share the quiz link in the chat.|Thank everyone for their attention."),
        ),
        table_titles=("Completion by Department", "Training Completion"),
        table_header=("Department", "Staff", "Completed", "Phish Reports"),
        table_labels=DEPARTMENTS,
        table_columns=("int", "pct", "int"),
        images=("security_badge", "phishing_chart", "shield_logo"),
    ),
    DeckDef(
        name="budget_planning",
        titles=("{next_year} Budget Proposal", "Annual Budget Planning {next_year}", "{team} Budget Review"),
        subtitles=("Finance Committee", "Draft for discussion", "Prepared by {person1}"),
        stems=("budget_{next_year}", "{team_slug}_budget_proposal", "annual_budget_{next_year}"),
        slides=(
            S("Budget at a Glance|Budget Summary", "Total requested budget of {money1}; "
              "Increase of {pct4} over this year; Headcount flat except for two new roles; "
              "Savings from vendor consolidation; Capital spending limited to essential upgrades; "
              "Contingency held at five percent; Approval needed by {day}",
              "This is a draft for discussion.|Lead with the total and the increase."),
            S("Planning Assumptions|Key Assumptions", "Revenue growth of {pct3} next year; "
              "Salary increases averaging four percent; Inflation on supplier contracts; "
              "No new office space needed; Exchange rates at current levels; "
              "Cloud usage grows with customer count; Hiring plan starts in the second quarter",
              "Assumptions were agreed with the CFO.|Flag the exchange rate risk."),
            S("People Costs|Personnel Costs", "Salaries remain the largest cost line; "
              "Two new analyst roles requested; Bonus pool based on company targets; "
              "Training budget per employee unchanged; Overtime reduced through better scheduling; "
              "Contractors converted to permanent staff; Benefits costs rise with insurance premiums",
              "HR validated the salary numbers.|Explain why the analyst roles are needed."),
            S("Non-Personnel Spending|Operating Costs", "Software subscriptions reviewed seat by seat; "
              "Travel budget reduced by {pct4}; Office supplies moved to a single vendor; "
              "Marketing events focused on two major shows; Consulting spend limited to audit and legal; "
              "Utilities forecast based on current usage; Insurance renewal expected in {month}",
              "Travel is the easiest place to save.|Software review found many unused seats."),
            S("Capital Spending|Capital Investments", "Laptop refresh for one third of staff; "
              "Network upgrade in the {city} office; New meeting room equipment; "
              "Server room cooling replacement; Security cameras at the warehouse; "
              "Each item has a payback estimate; Lower priority items deferred to next year",
              "Capital items are ranked by priority.|Cooling replacement cannot wait."),
            S("Cost Savings|Savings Initiatives", "Vendor consolidation saves {money3}; "
              "Energy efficient lighting in all offices; Paperless invoicing across finance; "
              "Renegotiated cleaning contract; Shared services for payroll and IT; "
              "Cancel unused software licenses; Review of courier and postage costs",
              "Savings are net of one-off costs.|Procurement led the vendor work."),
            S("Risks to the Budget|Budget Risks", "Higher than expected salary inflation; "
              "Delays in vendor consolidation; Unplanned regulatory costs; "
              "Currency swings on imported equipment; Hiring delays could shift costs; "
              "Energy prices remain volatile; Mitigation through quarterly reforecasts",
              "No risk is above medium today.|Reforecasts happen every quarter."),
            S("Requests by Department|Department Requests", "Sales: two account managers; "
              "Marketing: budget for the brand refresh; Operations: warehouse scanner upgrade; "
              "IT: security monitoring service; HR: new learning platform; Finance: automated expense tool; "
              "Legal: contract management software",
              "Each request has a business case.|Ask department heads to confirm priorities."),
            S("Approval Process|Next Steps for Approval", "Department heads review drafts this week; "
              "Finance committee review on {day}; Board approval in {month}; "
              "Final budget loaded into the system; Monthly reporting against the new budget; "
              "Reforecast at the end of each quarter; Questions go to {person1}",
              "Confirm the committee date.|Send the draft pack after the meeting."),
            S("Year over Year View|Comparison to Prior Year", "Personnel costs up {pct4}; "
              "Operating costs down slightly; Capital spending flat; Revenue per employee improves; "
              "Cost per customer falls again; Two one-off costs drop out; Overall margin expected to improve",
              "Keep the comparison high level.|Detailed tables are in the appendix."),
        ),
        table_titles=("Budget by Department", "Department Budgets"),
        table_header=("Department", "This Year", "Next Year", "Change"),
        table_labels=DEPARTMENTS,
        table_columns=("money", "money", "pct"),
        images=("finance_logo", "spend_chart", "budget_chart"),
    ),
)
