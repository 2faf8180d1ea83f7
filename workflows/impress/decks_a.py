"""Deck scenarios for the Impress content generator (part 1: business reviews, onboarding, launches, sales).

Pure data. Every text may use the `{fields}` that `workflows.impress.content.fields` fills (company, product,
period, people, percentages...). Titles list alternatives separated by "|". Slides are in a deck's logical
order; a deck uses an ordered subset. No text contains quotes or apostrophes (instructions quote with them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SlideDef:
    titles: tuple[str, ...]
    bullets: tuple[str, ...]  # 7, the deck shows 4 of them, the rest are spares for edits
    notes: tuple[str, ...]


@dataclass(frozen=True)
class DeckDef:
    name: str
    titles: tuple[str, ...]
    subtitles: tuple[str, ...]
    stems: tuple[str, ...]
    slides: tuple[SlideDef, ...]
    table_titles: tuple[str, ...]
    table_header: tuple[str, str, str, str]
    table_labels: tuple[str, ...]  # first column, in display order; "person" draws names
    table_columns: tuple[str | tuple[str, ...], str | tuple[str, ...], str | tuple[str, ...]]
    images: tuple[str, ...]  # picture file stems; "chart" in a stem draws a bar chart, else a logo


def S(titles: str, bullets: str, notes: str) -> SlideDef:
    """A slide: "|"-separated title alternatives, ";"-separated bullets, "|"-separated notes alternatives."""
    return SlideDef(tuple(titles.split("|")), tuple(b.strip() for b in bullets.split(";")), tuple(notes.split("|")))


DECKS_A = (
    DeckDef(
        name="quarterly_review",
        titles=("{period} Business Review", "{company} Quarterly Review", "Quarterly Results {period}"),
        subtitles=("Prepared by the Finance Team", "Executive Leadership Meeting", "{company} Leadership Team"),
        stems=("qbr_{slug}", "quarterly_review_{year}", "{slug}_business_review"),
        slides=(
            S("Agenda|Meeting Agenda", "Financial highlights for {period}; Revenue by region; Product performance; "
              "Customer metrics and churn; Operating expenses; Risks and mitigations; Outlook for {next_period}",
              "Keep the agenda short and move quickly to the numbers.|Mention that questions are welcome after "
              "each section."),
            S("Financial Highlights|Key Financial Results", "Revenue reached {money1}, up {pct1} year over year; "
              "Gross margin improved to {pct2}; Operating cash flow stayed positive for the fifth quarter; "
              "Net new bookings grew {pct3} against plan; Deferred revenue rose to {money2}; "
              "EBITDA margin held steady despite higher hiring; Cash reserves cover more than 18 months of spending",
              "Lead with revenue, then margin.|Remind everyone these figures are still unaudited."),
            S("Revenue by Region|Regional Performance", "{region} delivered the largest share of new revenue; "
              "{region2} grew {pct1} after the partner program launch; Enterprise deals in {city} closed early; "
              "Mid-market pipeline doubled in the second month; Currency effects reduced reported growth; "
              "Two regional offices exceeded quota for the first time; Public sector deals remain slow to close",
              "Call out the partner program as the main driver.|Thank the regional sales leads by name."),
            S("Product Performance|Product Update", "{product} usage grew {pct2} quarter over quarter; "
              "Mobile app ratings rose to 4.6 stars; Three major releases shipped on schedule; "
              "Feature adoption is highest among enterprise accounts; Support tickets per customer fell {pct4}; "
              "Integration marketplace now lists {count1} partners; Legacy reporting module retires next quarter",
              "Show the usage chart from the product team if asked.|Keep this section under five minutes."),
            S("Customer Metrics|Customer Health", "Net revenue retention reached {nrr}; Logo churn dropped to {churn}; "
              "Net promoter score climbed to {nps}; {count2} new customers signed this quarter; "
              "Average contract value increased {pct3}; Top ten accounts all renewed early; "
              "Onboarding time shortened from six to four weeks",
              "Retention is the headline here.|Compare churn with the same quarter last year."),
            S("Operating Expenses|Cost Overview", "Total operating expenses were {money3}; "
              "Headcount grew by {hires} people, mostly in engineering; Cloud hosting costs fell after the "
              "migration; Travel spending stayed below budget; Marketing spend shifted toward digital channels; "
              "Office consolidation saves rent from next year; Contractor spending will be reviewed in {next_period}",
              "Explain the hosting savings in one sentence.|Point out that hiring is the largest new cost."),
            S("Risks and Mitigations|Key Risks", "Longer sales cycles in large enterprise deals; "
              "Hiring delays for senior engineering roles; Dependency on one payment processor; "
              "Pricing pressure from new competitors; Data residency rules in {region2}; "
              "Mitigation plans have named owners and dates; Risk register is reviewed every month",
              "Do not go into detail on each risk.|Offer the full risk register after the meeting."),
            S("Outlook for {next_period}|Next Quarter Outlook", "Launch the {product} analytics add-on; "
              "Open a sales office in {city}; Target net revenue retention above {nrr}; "
              "Complete the billing system upgrade; Hire {hires} customer-facing staff; "
              "Keep operating margin within plan; Refresh pricing for the mid-market tier",
              "End on the growth targets.|Ask for support on the new office decision."),
            S("Team Updates|People and Culture", "{person1} joins as Vice President of Sales; "
              "Employee engagement score rose to 82; Internal mobility filled {hires} open roles; "
              "New parental leave policy takes effect in {month}; Quarterly hackathon produced four shipped features; "
              "Mentoring program expanded to all departments; Attrition stayed below the industry average",
              "Welcome {person1} if they are in the room.|Keep it upbeat and brief."),
            S("Summary and Next Steps|Key Takeaways", "Growth remained strong across all regions; "
              "Margins improved while we kept investing; Customer retention is our strongest metric; "
              "Execution risks are known and tracked; Leadership will share detailed targets next week; "
              "Send questions to the finance team by {weekday}; Next review is scheduled for {month}",
              "Close with the three takeaways.|Leave ten minutes for open questions."),
        ),
        table_titles=("Results by Region", "Regional Scorecard"),
        table_header=("Region", "Revenue", "Growth", "Target Met"),
        table_labels=("North America", "EMEA", "APAC", "Latin America", "Nordics", "Middle East"),
        table_columns=("money", "pct", ("Yes", "No")),
        images=("revenue_chart", "company_logo", "growth_chart"),
    ),
    DeckDef(
        name="onboarding",
        titles=("Welcome to {company}", "New Hire Onboarding", "{company} Onboarding Program"),
        subtitles=("Orientation for the {month} cohort", "People Operations", "Your first weeks with us"),
        stems=("onboarding_{month_slug}", "new_hire_orientation", "welcome_deck_{year}"),
        slides=(
            S("Welcome Aboard|Welcome to the Team", "We are glad you joined {company}; "
              "This session covers your first two weeks; Your manager and buddy will meet you today; "
              "Ask questions at any time; Slides are shared on the intranet after the session; "
              "Lunch is provided in the main kitchen; Please silence your phones during demos",
              "Introduce yourself and the People team.|Do a quick round of names."),
            S("Mission and Values|Our Values", "Customers first in every decision; Own the outcome, not just the task; "
              "Share information openly and early; Assume good intent from colleagues; "
              "Keep learning and teaching others; Ship small improvements often; Celebrate wins as a team",
              "Give one real example for each value.|Ask which value resonates most."),
            S("Your First Week|First Week Checklist", "Collect your laptop and badge from IT; "
              "Complete the security awareness course; Set up email, chat and calendar; Meet your onboarding buddy; "
              "Read the team handbook; Book one-on-one meetings with teammates; Join the all-hands on {weekday}",
              "Point to the printed checklist in the welcome pack.|Stress the security course deadline."),
            S("Tools and Accounts|IT and Accounts", "Single sign-on gives access to all core tools; "
              "Enable two-factor authentication on day one; Request extra software through the service desk; "
              "Store work files on the shared drive, not the laptop; VPN is required when working remotely; "
              "Report lost devices to IT within one hour; Password manager licenses are free for staff",
              "IT will demo single sign-on live.|Hand out the service desk card."),
            S("Benefits Overview|Your Benefits", "Health insurance starts on your first day; "
              "Retirement plan with a {pct_small} employer match; Twenty-five days of paid time off; "
              "Annual learning budget of {budget}; Wellness allowance for gym or classes; "
              "Flexible hours agreed with your manager; Employee assistance program is confidential",
              "Benefits enrollment closes after 30 days.|Refer detailed questions to the benefits portal."),
            S("Key Contacts|Who to Ask", "People Operations: {person1}; IT service desk: extension 4400; "
              "Facilities and parking: {person2}; Payroll questions go to the payroll mailbox; "
              "Your onboarding buddy for everyday questions; Security incidents go to the security hotline; "
              "Your manager for goals and priorities",
              "Contacts are also listed on the intranet.|Encourage new starters to save these contacts."),
            S("Workplace Policies|Policies to Know", "Code of conduct applies online and offline; "
              "Expense claims are due within 30 days; Remote work needs manager approval; "
              "Confidential data stays on company systems; Travel is booked through the travel portal; "
              "Harassment reports can be anonymous; Overtime must be approved in advance",
              "Policies are in the handbook, section four.|Keep this part factual and short."),
            S("Your First 90 Days|The 30-60-90 Day Plan", "Days 1 to 30: learn the product and the team; "
              "Days 31 to 60: own a small project end to end; Days 61 to 90: set goals with your manager; "
              "Weekly check-ins with your manager; Feedback survey at day 45; "
              "Probation review at the end of month three; Shadow a customer call in the first month",
              "Managers have the same plan in their guide.|Explain that goals are set together."),
            S("Office Tour|Getting Around the Office", "Reception and visitor sign-in on the ground floor; "
              "Quiet rooms are on the third floor; Meeting rooms are booked through the calendar; "
              "Bike storage is behind the main entrance; First aid kits sit next to each kitchen; "
              "The {city} office opens at 7 am; Fire assembly point is the north parking lot",
              "The tour starts right after this session.|Remind people about the fire assembly point."),
            S("Next Steps|Questions and Next Steps", "Finish the compliance courses by {day}; "
              "Submit your bank details to payroll; Add a photo to your profile; "
              "Join the new starters chat channel; Give feedback on this session; "
              "Your buddy will check in on {weekday}; The next orientation session starts at 2 pm",
              "Share the feedback link in the chat.|Thank everyone for joining."),
        ),
        table_titles=("Week One Schedule", "Orientation Timetable"),
        table_header=("Day", "Session", "Host", "Room"),
        table_labels=("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
        table_columns=(("Company overview", "IT setup", "Security training", "Product demo", "Benefits briefing",
                        "Tools walkthrough", "Team lunch"), "person", ("Room A", "Room B", "Atrium", "Library",
                                                                       "Studio 3")),
        images=("company_logo", "welcome_badge", "team_logo"),
    ),
    DeckDef(
        name="product_launch",
        titles=("{product} Launch Plan", "Launching {product}", "{product} Go-to-Market Plan"),
        subtitles=("Product Marketing, {period}", "Launch readiness review", "{company} Product Team"),
        stems=("{product_slug}_launch", "launch_plan_{slug}", "gtm_{product_slug}"),
        slides=(
            S("Launch Overview|Launch at a Glance", "{product} launches on {day}; "
              "Target segment is mid-size operations teams; Launch in {region} first, then {region2}; "
              "Pricing starts at {price} per user per month; Beta customers reported {pct2} time savings; "
              "Press briefing scheduled one week before launch; Goal of {count1} paying accounts in 90 days",
              "Set the scene in two minutes.|Mention the beta results early."),
            S("Market Opportunity|Why Now", "Spreadsheets still run most team workflows; "
              "Analysts expect the category to grow {pct3} a year; Competitors focus on large enterprises; "
              "Customers ask for simpler onboarding; Remote teams need shared live dashboards; "
              "Our installed base gives a warm audience; Partners requested an open integration API",
              "Use the analyst quote from the research pack.|Keep competitor names out of the recording."),
            S("Target Customers|Customer Personas", "Operations managers in growing companies; "
              "Team leads who own weekly reporting; IT admins who approve new tools; "
              "Finance partners who track budgets; Agencies managing several client accounts; "
              "Existing customers on the legacy plan; Startups moving off spreadsheets",
              "Each persona has a one-page profile in the launch kit.|Ask sales which persona they meet most."),
            S("Key Features|What Is New", "Drag-and-drop workflow builder; Live dashboards with automatic refresh; "
              "Role-based permissions for every workspace; Native integrations with email and chat; "
              "Audit log for every change; Mobile approvals on iOS and Android; "
              "Templates for the ten most common processes",
              "Run the two-minute demo video here.|Focus on the workflow builder."),
            S("Pricing and Packaging|Pricing Plan", "Starter plan at {price} per user per month; "
              "Business plan adds approvals and audit log; Enterprise plan includes single sign-on; "
              "Annual billing saves two months; Free trial lasts 14 days; Nonprofit discount of {pct3}; "
              "Legacy customers keep their current price for a year",
              "Pricing is final unless finance objects this week.|Stress the legacy price promise."),
            S("Marketing Campaign|Campaign Plan", "Launch webinar with a live product demo; "
              "Customer stories from three beta accounts; Paid search in {region} for six weeks; "
              "Email sequence to the existing customer base; Launch post on the company blog; "
              "Social media countdown in the final week; Partner co-marketing kit ready at launch",
              "Marketing owns every item on this slide.|Share the campaign calendar link."),
            S("Sales Readiness|Sales Enablement", "Sales training sessions in the two weeks before launch; "
              "Updated battle cards against main competitors; Demo environment for every account executive; "
              "Objection handling guide published; Discount approval rules clarified; "
              "Quota credit for launch deals in {next_period}; Weekly launch stand-up for the sales team",
              "{person1} leads sales enablement.|Ask sales leaders to confirm training dates."),
            S("Launch Timeline|Key Milestones", "Feature freeze on {day}; Beta feedback review in week two; "
              "Documentation complete one week before launch; Press embargo lifts on launch morning; "
              "Launch day status call at 9 am; Thirty-day review with leadership; Ninety-day success report",
              "Dates are also in the shared launch calendar.|Highlight the feature freeze date."),
            S("Risks and Dependencies|Launch Risks", "Payment provider integration not yet certified; "
              "Support team needs two more trained agents; Translations for {region2} may slip; "
              "Load testing still in progress; Competitor announcement expected the same month; "
              "Legal review of the new terms of service; Fallback plan is a soft launch to beta users",
              "Be honest about the payment integration.|Owners for each risk are in the tracker."),
            S("Success Metrics|How We Measure Success", "{count1} paying accounts within 90 days; "
              "Trial to paid conversion above {pct2}; Net promoter score above {nps}; "
              "Fewer than five critical bugs in the first month; Support response under four hours; "
              "Website sign-ups up {pct1} month over month; Two analyst briefings completed",
              "These metrics go to the board.|Ask for agreement on the targets."),
        ),
        table_titles=("Launch Checklist", "Readiness Tracker"),
        table_header=("Workstream", "Owner", "Status", "Due"),
        table_labels=("Website", "Pricing page", "Sales training", "Press kit", "Support docs", "Billing setup",
                      "Partner kit"),
        table_columns=("person", ("Done", "On track", "At risk", "Not started"), "date"),
        images=("product_logo", "beta_results_chart", "launch_badge"),
    ),
    DeckDef(
        name="sales_training",
        titles=("Consultative Selling Workshop", "Sales Skills Training", "{company} Sales Academy"),
        subtitles=("Module 2 of 4", "Trainer: {person1}", "Regional Sales Team, {region}"),
        stems=("sales_training_module2", "selling_workshop_{month_slug}", "sales_academy_{year}"),
        slides=(
            S("Learning Goals|Training Objectives", "Ask open questions that uncover needs; "
              "Qualify opportunities earlier; Handle price objections with confidence; "
              "Write clear follow-up emails; Use the CRM consistently after every call; "
              "Plan account strategy for top customers; Practice through role play in pairs",
              "Ask each person to pick one goal.|Write the goals on the flip chart."),
            S("Running Discovery|The Discovery Call", "Research the account before the call; "
              "Confirm the agenda in the first minute; Ask about goals before talking about features; "
              "Listen more than you speak; Summarize what you heard; Agree on a clear next step; "
              "Log notes in the CRM the same day",
              "Play the sample call recording.|Ask who already sends an agenda."),
            S("Qualifying Deals|Qualification Framework", "Budget: is money set aside this year; "
              "Authority: who signs the contract; Need: what problem costs them most; "
              "Timeline: when must it be solved; Competition: who else are they talking to; "
              "Champion: who will sell internally for us; Disqualify early to protect your time",
              "Use a live deal from the group as an example.|Stress disqualifying early."),
            S("Objection Handling|Handling Objections", "Acknowledge the concern before answering; "
              "Ask a question to understand the real issue; Share a relevant customer story; "
              "Quantify the cost of doing nothing; Never discount in the first meeting; "
              "Escalate legal questions to the deal desk; Write down objections you hear often",
              "Collect objections from the room first.|Role play the price objection."),
            S("Talking About Price|Pricing Conversations", "Anchor on value before price; "
              "Present three options, not one; Explain what is included in each tier; "
              "Trade discounts for longer terms; Discounts above {pct3} need manager approval; "
              "Avoid sending price lists by email; Confirm the budget owner before quoting",
              "Refer to the pricing calculator.|Mention the approval rule twice."),
            S("Pipeline Hygiene|Keeping the Pipeline Clean", "Update deal stages every {weekday}; "
              "Close dates must reflect customer commitments; Remove deals with no activity in 60 days; "
              "Attach the mutual action plan to each deal; Forecast only deals in commit stage; "
              "Review stuck deals with your manager; Record the reason for every lost deal",
              "Show the pipeline report filters.|Keep it practical, not preachy."),
            S("Practice Session|Role Play Exercise", "Work in pairs: one buyer, one seller; "
              "Use the case study handout; Ten minutes per round, then switch roles; "
              "Observer notes three strengths and one gap; Focus on discovery questions; "
              "Debrief as a group after each round; Best recordings go to the team library",
              "Hand out the case studies now.|Time each round strictly."),
            S("Sales Metrics That Matter|Key Metrics", "Win rate target of {pct2} in {next_period}; "
              "Pipeline coverage of three times quota; Meetings booked per week; "
              "Conversion from demo to proposal; Expansion revenue from existing customers; "
              "Forecast accuracy within ten percent; Average deal cycle under 60 days",
              "Show last quarter numbers for context.|Do not compare individuals here."),
            S("Sales Toolkit|Tools and Resources", "CRM mobile app for logging calls; "
              "Proposal templates in the shared drive; Competitor battle cards updated monthly; "
              "Pricing calculator for custom quotes; Customer reference list by industry; "
              "Call recording library; Weekly enablement newsletter",
              "Links are in the course page.|Ask who uses the mobile app today."),
            S("Wrap-Up|Key Takeaways and Homework", "Book three discovery calls this week; "
              "Use the qualification checklist on every deal; Share one objection story in the team channel; "
              "Complete the online quiz by {day}; Next module covers negotiation; Send feedback to {person1}; "
              "Certificates are issued after all four modules",
              "Remind everyone about the quiz deadline.|Thank the group for the role play."),
        ),
        table_titles=("Team Scorecard", "Sales Scorecard"),
        table_header=("Rep", "Deals Won", "Win Rate", "Pipeline"),
        table_labels=("person",),
        table_columns=("int", "pct", "money"),
        images=("academy_logo", "win_rate_chart", "pipeline_chart"),
    ),
)
