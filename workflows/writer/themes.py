"""Scenario data for the Writer content generator: what office documents are about.

Each `Theme` holds subject lines, audiences, sections (heading variants + sentences), list items with two
sub-points each, and a three-column table spec. Sentences use `{slot}` fields filled per document
(see `workflows.writer.content._context`). House rule for all text here: no hyphens, slashes, apostrophes,
percent or currency signs, and no two sentences of a theme share their first four words.
"""

from __future__ import annotations

from dataclasses import dataclass

Section = tuple[tuple[str, ...], tuple[str, ...]]
Item = tuple[str, tuple[str, str]]


@dataclass(frozen=True)
class Theme:
    subjects: tuple[str, ...]
    audiences: tuple[str, ...]
    sections: tuple[Section, ...]
    items: tuple[Item, ...]
    table: tuple[tuple[str, str, str], tuple[str, ...], tuple[str, ...], tuple[str, ...]]


THEMES: dict[str, Theme] = {
    "office_relocation": Theme(
        subjects=("Office Relocation", "Move to the Riverside Building", "Relocation of the {dept} Team"),
        audiences=("All staff", "Team leads", "{dept} staff"),
        sections=(
            (("Background", "Why We Are Moving"), (
                "Our lease at the current site ends in {month} {year} and the landlord has declined to renew it.",
                "The new building offers {count} desks, better transport links and lower running costs.",
                "A working group led by {person2} compared five locations before making a recommendation.",
                "Moving all teams together also lets us close the overflow office on Station Road.",
                "The board approved the relocation budget of {amount} euros at its last meeting.")),
            (("Timeline", "Key Dates"), (
                "Packing crates will be delivered to each floor on {weekday} {day} {month}.",
                "The move itself will take place over two weekends to keep disruption low.",
                "Each team will receive its new seating plan one week before its moving date.",
                "Network and telephone services will be tested on the Friday before each move.",
                "From {day} {next_month}, all visitors should be directed to the new reception desk.")),
            (("What Staff Need to Do", "Actions for Staff"), (
                "Please label every box with your name, team and new desk number.",
                "Personal items should be taken home before the final packing day.",
                "Staff are asked to clear shared cupboards and return borrowed equipment to {dept}.",
                "Anyone with accessibility needs should contact {person2} as soon as possible.",
                "Laptops travel with their owners and must not be packed in crates.")),
            (("Support and Questions", "Contacts"), (
                "Questions about the move can be sent to the facilities mailbox at any time.",
                "A short briefing session will be held in {place} on {weekday} at 10 am.",
                "Floor wardens will be available on both sites during each moving weekend.",
                "We will publish updates on the intranet every week until the move is complete.",
                "Thank you for your patience while we make this change together.")),
        ),
        items=(
            ("Label all boxes with name and desk number", ("Use the printed labels provided", "Mark fragile items")),
            ("Clear personal items from desks", ("Take valuables home", "Recycle old paperwork")),
            ("Return borrowed equipment to {dept}", ("Include chargers and cables", "Log returns at reception")),
            ("Attend the move briefing on {weekday}", ("Bring questions from your team", "Check the seating plan")),
            ("Update your delivery address with suppliers", ("Notify couriers", "Change email signatures")),
            ("Test your phone and network on the first day", ("Report faults to the helpdesk",
                                                              "Confirm printer access")),
        ),
        table=(("Team", "Moving Date", "New Floor"),
               ("Finance", "Operations", "Marketing", "Legal", "Customer Service", "IT Services", "Procurement"),
               ("6 May", "13 May", "20 May", "27 May", "3 June"),
               ("Ground floor", "First floor", "Second floor", "Third floor")),
    ),
    "quarterly_sales": Theme(
        subjects=("Quarterly Sales Review", "Third Quarter Sales", "Regional Sales Performance"),
        audiences=("Sales team", "Regional managers", "Executive team"),
        sections=(
            (("Summary", "Overview"), (
                "Total sales for the quarter reached {amount} euros, slightly above the forecast.",
                "Growth came mainly from repeat customers in the northern region.",
                "New customer acquisition slowed during the summer holiday period.",
                "Average order value rose by {pct} percent compared with the previous quarter.",
                "Online orders now account for more than half of all transactions.")),
            (("Regional Results", "Performance by Region"), (
                "The northern region exceeded its target for the third quarter in a row.",
                "Southern sales fell short because two large contracts were delayed until {next_month}.",
                "The western team signed {small} new distributors and expects steady growth.",
                "Eastern results were flat, reflecting increased competition from local suppliers.",
                "Regional managers will present detailed figures at the review on {weekday}.")),
            (("Challenges", "Risks"), (
                "Rising freight costs reduced margins on our lower priced product lines.",
                "Several key accounts have asked for longer payment terms this year.",
                "Stock shortages in {month} meant some orders shipped late.",
                "Staff turnover in the southern office has slowed the onboarding of new clients.",
                "Exchange rate changes may affect export revenue next quarter.")),
            (("Next Steps", "Priorities for Next Quarter"), (
                "We will launch a loyalty offer for customers who order at least {small} times a year.",
                "The pricing committee will review discounts before the end of {next_month}.",
                "Each region will nominate one account manager to pilot the new CRM reports.",
                "Marketing will support the southern team with a targeted campaign.",
                "{person2} will circulate updated targets to every region by {day} {next_month}.")),
        ),
        items=(
            ("Review discount levels for key accounts", ("Compare with last year", "Flag exceptions")),
            ("Confirm the delayed southern contracts", ("Call both clients", "Update the forecast")),
            ("Prepare the loyalty offer proposal", ("Estimate the cost", "Draft customer wording")),
            ("Share regional dashboards with managers", ("Check the data sources", "Schedule a walkthrough")),
            ("Plan the next quarterly review meeting", ("Book {place}", "Invite regional leads")),
            ("Update the sales forecast for {next_year}", ("Include new distributors", "Reflect freight costs")),
        ),
        table=(("Region", "Sales", "Target Met"),
               ("North", "South", "East", "West", "Central", "Coastal", "Export"),
               ("1.2 million", "860,000", "940,000", "1.05 million", "720,000", "610,000"),
               ("Yes", "No", "Partly")),
    ),
    "it_security": Theme(
        subjects=("Information Security", "Password and Device Security", "Acceptable Use of IT Systems"),
        audiences=("All staff", "All employees and contractors", "New starters"),
        sections=(
            (("Purpose", "Scope"), (
                "This document sets out how staff must protect company information and devices.",
                "It applies to employees, contractors and volunteers who use {org} systems.",
                "Managers are responsible for making sure their teams understand these rules.",
                "Breaches of this policy may lead to disciplinary action.",
                "The policy is reviewed every year by the {dept} team.")),
            (("Passwords", "Account Security"), (
                "Passwords must be at least twelve characters long and must not be reused.",
                "Multifactor authentication is required for email and remote access.",
                "Never share your password with colleagues, even for a short time.",
                "Accounts are locked after five failed sign in attempts.",
                "Suspicious sign in alerts should be reported to the helpdesk immediately.")),
            (("Devices", "Laptops and Phones"), (
                "Company laptops must be locked whenever they are left unattended.",
                "Lost or stolen devices must be reported within one hour.",
                "Only approved software may be installed on company equipment.",
                "Personal phones used for work email must have a screen lock enabled.",
                "Devices are encrypted by {dept} before they are issued to staff.")),
            (("Reporting Incidents", "Incident Response"), (
                "Report any suspected phishing email using the report button in your mail client.",
                "The security team will acknowledge every report within one working day.",
                "Do not try to investigate a suspected incident on your own.",
                "{person2} coordinates the response to serious security incidents.",
                "Lessons learned from incidents are shared with staff in the monthly newsletter.")),
        ),
        items=(
            ("Enable multifactor authentication on email", ("Use the authenticator app", "Keep backup codes safe")),
            ("Lock your screen when leaving your desk", ("Use the keyboard shortcut", "Set a short timeout")),
            ("Report lost devices within one hour", ("Call the helpdesk", "Change your password")),
            ("Complete the annual security training", ("Finish by {day} {next_month}", "Pass the short quiz")),
            ("Install updates when prompted", ("Restart the same day", "Report failed updates")),
            ("Check links before clicking", ("Hover to see the address", "Report suspicious messages")),
        ),
        table=(("Control", "Owner", "Review Cycle"),
               ("Password rules", "Device encryption", "Email filtering", "Backups", "Access reviews",
                "Software approval", "Incident logging"),
               ("IT Services", "Security team", "Facilities", "Human Resources", "Legal"),
               ("Monthly", "Quarterly", "Twice a year", "Annually")),
    ),
    "remote_work": Theme(
        subjects=("Remote Work", "Hybrid Working Arrangements", "Working from Home"),
        audiences=("All staff", "People managers", "{dept} staff"),
        sections=(
            (("Eligibility", "Who Can Work Remotely"), (
                "Staff who have completed their probation period may request hybrid working.",
                "Roles that require daily contact with customers on site are not eligible.",
                "Requests are approved by the line manager and recorded by Human Resources.",
                "Arrangements are reviewed after three months to confirm they work well.",
                "Temporary remote work may also be agreed during building closures.")),
            (("Working Hours", "Availability"), (
                "Remote staff must be reachable during core hours from 10 am to 3 pm.",
                "Calendars should show clearly whether you are at home or in the office.",
                "Team meetings on {weekday} are held in person whenever possible.",
                "Overtime rules are the same for remote and office based work.",
                "Managers should avoid sending messages late in the evening.")),
            (("Equipment", "Home Office Setup"), (
                "{org} provides a laptop, headset and one external monitor for home use.",
                "Staff may claim up to {amount} euros a year towards a suitable chair.",
                "A short workstation assessment must be completed before starting.",
                "Company equipment remains the property of {org} at all times.",
                "Faulty equipment should be returned to the office for repair.")),
            (("Data Protection", "Confidentiality at Home"), (
                "Confidential papers must not be printed at home.",
                "Calls about sensitive matters should be taken where others cannot overhear.",
                "Public wifi networks may only be used with the company VPN switched on.",
                "Household members must not use company devices.",
                "Any data loss must be reported to {person2} without delay.")),
        ),
        items=(
            ("Agree your remote days with your manager", ("Record them in the HR system",
                                                          "Review after three months")),
            ("Complete the workstation assessment", ("Check chair and screen height", "Submit the form online")),
            ("Keep your calendar up to date", ("Show office and home days", "Block focus time")),
            ("Use the VPN on public networks", ("Connect before opening email", "Report connection problems")),
            ("Attend the team day on {weekday}", ("Plan workshops for that day", "Book a desk in advance")),
            ("Return faulty equipment promptly", ("Log a ticket first", "Collect a replacement")),
        ),
        table=(("Team", "Office Days", "Remote Days"),
               ("Finance", "Marketing", "Operations", "Legal", "Design", "Customer Service", "Procurement"),
               ("Monday and Tuesday", "Tuesday and Thursday", "Wednesday", "Monday to Wednesday"),
               ("Thursday and Friday", "Monday and Friday", "Two flexible days", "Friday only")),
    ),
    "budget_planning": Theme(
        subjects=("Annual Budget Planning", "Budget for {next_year}", "Departmental Budget Requests"),
        audiences=("Budget holders", "Department heads", "Finance committee"),
        sections=(
            (("Introduction", "Purpose of This Document"), (
                "This document explains how budget requests for {next_year} will be prepared and approved.",
                "Every department must submit its request using the standard template.",
                "The finance team will consolidate requests into a single draft budget.",
                "Final approval rests with the board at its meeting in {next_month}.",
                "Early submissions help us resolve questions before the deadline.")),
            (("Assumptions", "Planning Assumptions"), (
                "Salary costs should include the agreed pay increase of {small} percent.",
                "Energy prices are expected to remain close to current levels.",
                "Travel budgets should assume the same number of trips as this year.",
                "Any new posts must be justified with a short business case.",
                "Income forecasts should be based on signed contracts only.")),
            (("Timetable", "Deadlines")  , (
                "Draft requests are due to {dept} by {day} {month} {year}.",
                "Budget holders will meet their finance partner during the following week.",
                "A consolidated draft will be shared with department heads on {weekday}.",
                "Revisions must be completed within ten working days of that meeting.",
                "The approved budget will be loaded into the finance system in {next_month}.")),
            (("Savings Targets", "Efficiency Measures"), (
                "Each department is asked to identify savings of at least {pct} percent.",
                "Shared contracts for printing and cleaning will be retendered this year.",
                "Unused software licences should be cancelled before renewal dates.",
                "Savings proposals must not reduce statutory or safety related spending.",
                "{person2} will report progress on savings to the committee every quarter.")),
        ),
        items=(
            ("Complete the budget template", ("Use the {year} version", "Fill every tab")),
            ("Attach business cases for new posts", ("Explain the benefit", "Show the full year cost")),
            ("Meet your finance partner", ("Bring supporting figures", "Agree open questions")),
            ("List proposed savings", ("Estimate each amount", "Note any risks")),
            ("Check contract renewal dates", ("Flag renewals before {next_month}", "Cancel unused licences")),
            ("Submit the request to {dept}", ("Use the shared folder", "Confirm by email")),
        ),
        table=(("Department", "Requested", "Change"),
               ("Finance", "Operations", "Marketing", "Human Resources", "Facilities", "IT Services", "Legal"),
               ("120,000", "245,500", "98,000", "310,250", "76,400", "182,000", "54,900"),
               ("Up 3 percent", "Down 2 percent", "No change", "Up 6 percent", "Down 5 percent")),
    ),
    "product_launch": Theme(
        subjects=("Product Launch", "Launch of the Aurora App", "New Product Introduction"),
        audiences=("Launch team", "Marketing and Sales", "Product stakeholders"),
        sections=(
            (("Launch Goals", "Objectives"), (
                "The launch aims to reach {count} paying customers within the first three months.",
                "We want the product to be rated at least four stars in the app store.",
                "Existing customers will be offered early access one week before the public release.",
                "Success will be measured through weekly sign up and retention reports.",
                "A clear launch message will help sales explain the benefits in one sentence.")),
            (("Launch Plan", "Release Schedule"), (
                "The public release is planned for {weekday} {day} {month} {year}.",
                "A press briefing will be held in {place} two days before release.",
                "Support staff will receive product training during the last week of {month}.",
                "Release notes will be published on the website at nine in the morning.",
                "The engineering team will monitor performance closely during launch week.")),
            (("Marketing Activities", "Campaign")  , (
                "Our campaign combines email, social media and partner newsletters.",
                "Short video demonstrations will be recorded by {person2} and the design team.",
                "Customer stories from the pilot will feature on the landing page.",
                "Paid advertising will start only after the first week of reviews.",
                "The campaign budget for the first quarter is {amount} euros.")),
            (("Risks and Mitigation", "Launch Risks"), (
                "Server capacity may be stretched if sign ups exceed our forecast.",
                "Late bugs found in testing could delay the release by one week.",
                "Competitors may announce similar features around the same time.",
                "We have prepared a rollback plan in case of serious problems.",
                "A daily launch call will track open issues until the end of {next_month}.")),
        ),
        items=(
            ("Finalise the release notes", ("Check wording with legal", "Publish at nine am")),
            ("Train the support team", ("Run two sessions", "Share the FAQ document")),
            ("Record the product demo videos", ("Keep each under two minutes", "Add captions")),
            ("Invite pilot customers to early access", ("Send personal emails", "Collect feedback")),
            ("Prepare the rollback plan", ("Test it on staging", "Assign an owner")),
            ("Book the press briefing room", ("Reserve {place}", "Arrange refreshments")),
        ),
        table=(("Task", "Owner", "Status"),
               ("Release notes", "Demo videos", "Landing page", "Support training", "Press briefing",
                "App store listing", "Pricing page"),
               ("Marketing", "Engineering", "Support", "Design", "Sales"),
               ("Done", "In progress", "Not started", "Blocked")),
    ),
    "customer_survey": Theme(
        subjects=("Customer Satisfaction Survey", "Annual Customer Survey Results", "Client Feedback Review"),
        audiences=("Service managers", "All customer facing staff", "Leadership team"),
        sections=(
            (("Survey Method", "How the Survey Was Run"), (
                "The survey was sent to {count} customers during {month} {year}.",
                "Responses were collected online over a period of three weeks.",
                "Questions covered product quality, delivery times and support experience.",
                "All answers were anonymous unless customers asked to be contacted.",
                "The response rate was higher than in any previous year.")),
            (("Key Findings", "Results")  , (
                "Overall satisfaction rose to {pct} percent of respondents rating us good or excellent.",
                "Customers praised the friendliness and knowledge of our support staff.",
                "Delivery times were the most common source of complaints.",
                "Many respondents asked for clearer invoices and simpler payment options.",
                "Small business customers were less satisfied than larger accounts.")),
            (("Comments from Customers", "What Customers Told Us"), (
                "Several customers said they would recommend us to a colleague.",
                "A number of comments mentioned long waiting times on the phone line.",
                "Users of the online portal asked for a better search function.",
                "Some long standing clients felt that prices had risen too quickly.",
                "Positive comments often named individual staff members of the {dept} team.")),
            (("Recommendations", "Proposed Actions"), (
                "We recommend adding a callback option to the support phone line.",
                "Invoices should be redesigned with input from a small customer panel.",
                "Delivery partners will be asked to share weekly performance data.",
                "Account managers should contact every dissatisfied customer personally.",
                "{person2} will lead a follow up survey in {next_month}.")),
        ),
        items=(
            ("Add a callback option to the phone line", ("Test with one team first", "Measure waiting times")),
            ("Redesign the customer invoice", ("Invite a customer panel", "Simplify payment details")),
            ("Contact every dissatisfied customer", ("Log each call", "Agree a next step")),
            ("Improve the portal search function", ("Collect example searches", "Prioritise common queries")),
            ("Share results with all staff", ("Present at the town hall", "Post on the intranet")),
            ("Plan the follow up survey", ("Keep the core questions", "Send it in {next_month}")),
        ),
        table=(("Question", "Score", "Trend"),
               ("Product quality", "Delivery time", "Support experience", "Value for money", "Ease of ordering",
                "Invoice clarity", "Website"),
               ("4.1", "3.2", "4.5", "3.8", "4.0", "3.4", "3.9"),
               ("Improving", "Stable", "Declining")),
    ),
    "health_safety": Theme(
        subjects=("Workplace Health and Safety", "Fire Safety Procedures", "Safety Inspection Findings"),
        audiences=("All staff", "Site supervisors", "Health and safety committee"),
        sections=(
            (("Responsibilities", "Roles"), (
                "Every employee must follow safe working practices and report hazards.",
                "Supervisors carry out a walk round inspection of their area each month.",
                "The health and safety committee meets every quarter to review incidents.",
                "{person2} is the appointed safety coordinator for the site.",
                "Contractors must sign in and receive a safety briefing before starting work.")),
            (("Fire Safety", "Emergency Procedures"), (
                "Fire alarms are tested every {weekday} at eleven in the morning.",
                "On hearing a continuous alarm, leave by the nearest exit and go to the assembly point.",
                "Fire doors must never be propped open or blocked.",
                "Fire wardens will check each floor and report to the incident controller.",
                "A full evacuation drill will take place before the end of {next_month}.")),
            (("Inspection Findings", "Issues Found")  , (
                "The last inspection found trailing cables in two open plan offices.",
                "Several first aid kits were missing plasters and gloves.",
                "Storage shelves in the basement were loaded above their safe limit.",
                "Lighting in the rear stairwell was too dim and has been reported.",
                "Most areas were clean, tidy and free of obvious hazards.")),
            (("Training", "Safety Training")  , (
                "All new staff complete fire safety training in their first week.",
                "First aid refresher courses are offered every spring.",
                "Manual handling training is mandatory for warehouse and facilities staff.",
                "Training records are kept by {dept} and checked during audits.",
                "Places on the next course in {place} can be booked through the intranet.")),
        ),
        items=(
            ("Clear trailing cables in open plan areas", ("Use cable covers", "Move power strips")),
            ("Restock all first aid kits", ("Check expiry dates", "Record the refill")),
            ("Reduce the load on basement shelves", ("Move heavy boxes down", "Label weight limits")),
            ("Repair the rear stairwell lighting", ("Raise a facilities ticket", "Test after repair")),
            ("Book the next evacuation drill", ("Inform reception", "Brief the fire wardens")),
            ("Update the training register", ("Add new starters", "Flag overdue courses")),
        ),
        table=(("Area", "Finding", "Action Due"),
               ("Reception", "Basement store", "Kitchen", "Rear stairwell", "Open plan office", "Car park",
                "Loading bay"),
               ("Trailing cables", "Dim lighting", "Blocked exit", "Overloaded shelves", "Missing signage"),
               ("This week", "Within 14 days", "End of month", "Next quarter")),
    ),
    "training_program": Theme(
        subjects=("Staff Training Program", "Leadership Development Course", "Learning and Development Plan"),
        audiences=("All staff", "Line managers", "{dept} staff"),
        sections=(
            (("Program Overview", "About the Program"), (
                "The program offers {small} short courses for staff at every level.",
                "Courses are delivered in person at {place} and online.",
                "Each course lasts half a day and includes practical exercises.",
                "Places are free of charge but must be booked in advance.",
                "The program was designed with feedback from last year participants.")),
            (("Course Schedule", "Dates and Sessions"), (
                "The first session starts on {weekday} {day} {month}.",
                "Afternoon sessions are repeated online for staff at other sites.",
                "Course materials are shared by email two days before each session.",
                "Sessions are limited to twenty participants to keep discussion lively.",
                "A full calendar for {year} is available on the intranet.")),
            (("How to Enrol", "Booking")  , (
                "Staff should agree course choices with their line manager first.",
                "Bookings are made through the learning portal using your staff number.",
                "Cancellations must be made at least three days before the session.",
                "Waiting lists are kept for popular courses and places are offered in order.",
                "Questions about enrolment can be sent to {person2} in {dept}.")),
            (("Evaluation", "Feedback and Certificates"), (
                "Participants complete a short feedback form at the end of each course.",
                "Certificates are issued once the course assessment has been passed.",
                "Managers receive a summary of attendance for their team every quarter.",
                "Feedback scores will be used to improve the program for {next_year}.",
                "The average rating last year was four out of five.")),
        ),
        items=(
            ("Agree course choices with your manager", ("Link them to your objectives", "Note preferred dates")),
            ("Book places through the learning portal", ("Use your staff number", "Check the confirmation email")),
            ("Read the course materials in advance", ("Allow thirty minutes", "Prepare one question")),
            ("Complete the feedback form", ("Be specific", "Suggest improvements")),
            ("Download your certificate", ("Save a copy", "Add it to your training record")),
            ("Share key lessons with your team", ("Use the next team meeting", "Keep it brief")),
        ),
        table=(("Course", "Date", "Format"),
               ("Time management", "Giving feedback", "Project basics", "Presentation skills",
                "Data protection", "Coaching conversations", "Negotiation"),
               ("4 March", "18 March", "8 April", "22 April", "13 May", "3 June"),
               ("In person", "Online", "Blended")),
    ),
    "fundraising_event": Theme(
        subjects=("Spring Fundraising Gala", "Charity Fun Run", "Annual Fundraising Dinner"),
        audiences=("Volunteers", "Event committee", "Trustees and volunteers"),
        sections=(
            (("Event Details", "About the Event"), (
                "The event will take place on {weekday} {day} {month} {year}.",
                "Guests will arrive from six in the evening for a welcome reception.",
                "We expect around {count} guests, including local business sponsors.",
                "All money raised will support the community learning fund.",
                "Last year the event raised {amount} euros for local projects.")),
            (("Volunteer Roles", "How Volunteers Can Help"), (
                "Volunteers are needed for registration, seating and the prize draw.",
                "Each volunteer will receive a short briefing pack one week before the event.",
                "Shifts last about three hours and refreshments will be provided.",
                "Please tell {person2} which roles you prefer by the end of {month}.",
                "Experienced volunteers will be paired with first time helpers.")),
            (("Sponsorship", "Sponsors and Donations"), (
                "Three local companies have already agreed to sponsor the evening.",
                "Sponsors will be thanked in the printed programme and on social media.",
                "Donated prizes are welcome and should be delivered to the office by {day} {next_month}.",
                "Gift aid forms will be available at the registration desk.",
                "We are still looking for a sponsor for the live music.")),
            (("Logistics", "Venue and Transport"), (
                "The venue has step free access and parking for {small} accessible spaces.",
                "A shuttle bus will run from the train station every twenty minutes.",
                "Tables, chairs and sound equipment will be set up during the afternoon.",
                "Catering has been arranged with a local supplier who offers vegetarian options.",
                "The venue must be cleared by midnight under the terms of our booking.")),
        ),
        items=(
            ("Confirm volunteer shift preferences", ("Reply to {person2}", "Note any access needs")),
            ("Collect donated prizes", ("Log each prize", "Thank the donor")),
            ("Print the event programme", ("List all sponsors", "Proofread twice")),
            ("Arrange the shuttle bus", ("Confirm pickup times", "Share the route")),
            ("Prepare the registration desk", ("Print guest lists", "Bring gift aid forms")),
            ("Plan the venue clean up", ("Assign a team", "Book waste collection")),
        ),
        table=(("Role", "Volunteers Needed", "Shift"),
               ("Registration", "Seating", "Prize draw", "Cloakroom", "Bar support", "Clean up", "Parking"),
               ("2", "3", "4", "5", "6"),
               ("Early", "Evening", "Late")),
    ),
    "website_redesign": Theme(
        subjects=("Website Redesign Project", "New Website Launch", "Website Content Review"),
        audiences=("Project board", "Content owners", "Communications team"),
        sections=(
            (("Project Aims", "Goals"), (
                "The redesign will make the website easier to use on mobile phones.",
                "Visitors should find key information within three clicks.",
                "The new design must meet accessibility standards at level AA.",
                "Content will be reduced by removing outdated and duplicate pages.",
                "Search rankings for our main services should improve within six months.")),
            (("Progress to Date", "Current Status"), (
                "The discovery phase finished in {month} with {count} user interviews.",
                "Wireframes for the home page and service pages have been approved.",
                "The development agency has started building the page templates.",
                "Content owners have reviewed about half of the existing pages.",
                "Testing with real users will begin in {next_month}.")),
            (("Content Migration", "Moving Content")  , (
                "Each page will be checked by its owner before it is moved.",
                "Pages with no visits in the past year will be archived.",
                "Images must have descriptive alternative text before migration.",
                "Redirects will be set up so that old links keep working.",
                "{person2} maintains the migration tracker and weekly progress report.")),
            (("Budget and Timeline", "Costs and Dates"), (
                "The project budget is {amount} euros, including hosting for the first year.",
                "Spending is currently in line with the approved plan.",
                "The new site is due to go live on {day} {next_month} {year}.",
                "A short freeze on content changes will apply during the final week.",
                "Any change to the launch date must be agreed by the project board.")),
        ),
        items=(
            ("Review pages you own", ("Mark outdated content", "Suggest new wording")),
            ("Add alternative text to images", ("Describe the purpose", "Keep it short")),
            ("Test the new templates on a phone", ("Check menus", "Report layout problems")),
            ("Agree the content freeze dates", ("Inform all editors", "Plan urgent changes")),
            ("Set up redirects for old pages", ("Export the old link list", "Test each redirect")),
            ("Book user testing sessions", ("Recruit eight participants", "Prepare the script")),
        ),
        table=(("Page Group", "Owner", "Review Status"),
               ("Home", "Services", "About us", "News", "Contact", "Careers", "Help centre"),
               ("Communications", "Marketing", "Human Resources", "Customer Service", "IT Services"),
               ("Reviewed", "In review", "Not started")),
    ),
    "supplier_review": Theme(
        subjects=("Supplier Performance Review", "Annual Supplier Review", "Cleaning Contract Review"),
        audiences=("Procurement team", "Contract managers", "Operations board"),
        sections=(
            (("Scope of the Review", "Background"), (
                "This review covers our {small} largest suppliers by annual spend.",
                "Performance was assessed against the service levels in each contract.",
                "Feedback was gathered from the teams that use each service every day.",
                "The review period ran from January to {month} {year}.",
                "Results will inform contract renewals due in {next_year}.")),
            (("Performance Findings", "Results")  , (
                "Most suppliers met or exceeded their agreed service levels.",
                "The cleaning contractor missed several scheduled visits in the spring.",
                "Stationery deliveries were reliable but prices rose twice during the year.",
                "The IT support partner resolved urgent tickets faster than required.",
                "Invoices from two suppliers regularly contained errors.")),
            (("Issues Raised", "Concerns")  , (
                "Staff reported that the catering supplier offers few healthy options.",
                "Communication with the security contractor has improved since {month}.",
                "One supplier has not provided its updated insurance certificate.",
                "Late invoices make it harder for {dept} to close the monthly accounts.",
                "Several contracts lack clear penalties for missed service levels.")),
            (("Recommendations", "Next Steps")  , (
                "Renew the IT support contract for a further two years.",
                "Put the cleaning contract out to tender before it expires.",
                "Hold quarterly review meetings with every key supplier.",
                "Ask suppliers to submit invoices through the new portal.",
                "{person2} will present the final recommendations to the board on {weekday}.")),
        ),
        items=(
            ("Request updated insurance certificates", ("Set a deadline", "Record receipt")),
            ("Prepare the cleaning tender", ("Update the specification", "Invite five bidders")),
            ("Schedule quarterly supplier meetings", ("Share an agenda template", "Rotate the venue")),
            ("Move suppliers to the invoice portal", ("Send setup guides", "Track adoption")),
            ("Add service level penalties to contracts", ("Agree wording with legal", "Apply at renewal")),
            ("Collect user feedback every quarter", ("Use a short form", "Summarise results")),
        ),
        table=(("Supplier", "Service", "Rating"),
               ("Brightclean", "Paperline", "Techserve", "Fresh Plate Catering", "Guardwell", "Swift Couriers",
                "Greenbin Waste"),
               ("Cleaning", "Stationery", "IT support", "Catering", "Security", "Courier", "Waste collection"),
               ("Good", "Fair", "Poor", "Excellent")),
    ),
}
