"""Offline generator for the OS families' "content" LLM node: the raw material of a realistic home folder.

`generate_pool(rng, scenario)` returns a plain JSON dict fitting `POOL_SCHEMA`: who the user is, project
folder names, documents (file stem, title, body lines), photo and audio stems, small tables, log lines,
shell scripts and config settings, all drawn from one `Scenario` (a photographer's, a bakery owner's, a
grad student's ... files). Families arrange the pool into a tree with their own rng; the pool only
supplies plausible names and contents. All randomness comes from the caller's `random.Random`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kit.dag import fields_sketch
from workflows.answer_checks import first_problem, guarded, unique
from workflows.calc.content import FIRST_NAMES, LAST_NAMES

SLUG = "^[a-z][a-z0-9_-]{1,40}$"
_STRINGS = {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}}
_LINES = {"type": "array", "items": {"type": "string", "maxLength": 200}}
#: What a model is asked to write (`fields_sketch`): the names that make a home folder someone's; the documents,
#: tables, logs, scripts and settings (the bulk of the tokens) come from the scenario's templates.
POOL_ASK = ("owner", "projects", "photos", "tracks")
POOL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["scenario", "owner", "projects", "documents", "photos", "tracks", "tables", "logs", "scripts",
                 "settings"],
    "properties": {
        "scenario": {"type": "string"},
        "owner": {"type": "string", "minLength": 3},
        "projects": {"type": "array", "minItems": 3, "items": {"type": "string", "pattern": SLUG}},
        "documents": {"type": "array", "minItems": 8, "items": {
            "type": "object", "additionalProperties": False, "required": ["stem", "title", "lines"],
            "properties": {"stem": {"type": "string", "pattern": SLUG}, "title": {"type": "string"},
                           "lines": {**_LINES, "minItems": 2}}}},
        "photos": {"type": "array", "minItems": 10, "items": {"type": "string", "pattern": "^[A-Za-z0-9_-]{2,40}$"}},
        "tracks": {"type": "array", "minItems": 4, "items": {"type": "string", "pattern": SLUG}},
        "tables": {"type": "array", "minItems": 3, "items": {
            "type": "object", "additionalProperties": False, "required": ["stem", "header", "rows"],
            "properties": {"stem": {"type": "string", "pattern": SLUG}, "header": {**_STRINGS, "minItems": 2},
                           "rows": {"type": "array", "minItems": 4, "items": _STRINGS}}}},
        "logs": {"type": "array", "minItems": 2, "items": {
            "type": "object", "additionalProperties": False, "required": ["service", "lines"],
            "properties": {"service": {"type": "string", "pattern": SLUG}, "lines": {**_STRINGS, "minItems": 8}}}},
        "scripts": {"type": "array", "minItems": 3, "items": {
            "type": "object", "additionalProperties": False, "required": ["stem", "lines"],
            "properties": {"stem": {"type": "string", "pattern": SLUG}, "lines": {**_STRINGS, "minItems": 2}}}},
        "settings": {"type": "array", "minItems": 1, "items": {
            "type": "object", "additionalProperties": False, "required": ["app", "sections"],
            "properties": {"app": {"type": "string", "pattern": SLUG}, "sections": {
                "type": "object", "minProperties": 2, "additionalProperties": {
                    "type": "object", "minProperties": 2,
                    "additionalProperties": {"type": "string", "pattern": "^[^\\n=]{1,60}$"}}}}}},
    },
}
POOL_SKETCH = fields_sketch(POOL_SCHEMA, POOL_ASK)


@dataclass(frozen=True)
class Scenario:
    """One kind of user and their files. Table columns: "person", "date", "int:LO:HI", "money:LO:HI",
    "pick:a|b|c" or "id:PREFIX"."""

    name: str
    projects: tuple[str, ...]
    documents: tuple[tuple[str, str], ...]  # (stem, title)
    notes: tuple[str, ...]
    photos: tuple[str, ...]
    tracks: tuple[str, ...]
    tables: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # (stem, ((header, column spec), ...))
    services: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]  # (service, info msgs, error msgs)
    scripts: tuple[tuple[str, tuple[str, ...]], ...]  # (stem, commands)
    settings: tuple[tuple[str, tuple[tuple[str, tuple[tuple[str, str], ...]], ...]], ...]


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "wedding photographer", ("harbor-wedding", "spring-portraits", "studio-admin", "client-galleries"),
        (("client_contract", "Client contract"), ("shot_list", "Shot list"), ("model_release", "Model release"),
         ("pricing_guide", "Pricing guide"), ("gear_checklist", "Gear checklist"), ("venue_notes", "Venue notes"),
         ("editing_workflow", "Editing workflow"), ("invoice_terms", "Invoice terms"),
         ("album_layout", "Album layout")),
        ("Arrive ninety minutes before the ceremony for detail shots.", "Second shooter covers the groom's prep.",
         "Deliver the sneak peek gallery within one week.", "Deposit of thirty percent secures the date.",
         "Backup all cards to two drives the same night.", "Golden hour portraits at the pier if weather allows.",
         "Client prefers warm tones and minimal retouching.", "Album proofs go out after final payment."),
        ("beach_portrait", "golden_hour", "ring_closeup", "first_dance", "bridal_party", "pier_sunset",
         "cake_cutting", "venue_wide", "bouquet_detail", "candid_guests", "vows_exchange", "getaway_car"),
        ("client_call_notes", "ceremony_ambience", "first_dance_song", "voice_memo_venue", "toast_recording"),
        (("bookings", (("Client", "person"), ("Event Date", "date"), ("Package", "pick:Silver|Gold|Platinum"),
                       ("Fee", "money:1200:4800"))),
         ("expenses", (("Date", "date"), ("Item", "pick:Lens rental|Mileage|Prints|Album|Assistant"),
                       ("Amount", "money:20:900"))),
         ("gear_inventory", (("Item", "pick:Camera body|Prime lens|Zoom lens|Flash|Tripod|Memory card"),
                             ("Serial", "id:SN"), ("Value", "money:80:2600")))),
        (("photo-backup", ("copied 412 files from card A", "verified checksums on archive drive",
                           "sync finished in 3m12s"), ("card read error on sector 2241", "archive drive not mounted")),
         ("gallery-export", ("exported 86 images at 2048px", "uploaded gallery to client portal"),
          ("upload timed out after 60s", "watermark file missing"))),
        (("backup_cards", ("rsync -a /media/card/DCIM/ ~/Pictures/incoming/", "echo 'cards backed up'")),
         ("resize_for_web", ("mogrify -resize 2048x2048 -quality 85 ~/Pictures/export/*.jpg",)),
         ("rename_raw", ("exiftool '-FileName<CreateDate' -d '%Y%m%d_%H%M%S%%-c.%%e' ~/Pictures/raw",))),
        (("gallery", (("export", (("quality", "90"), ("max_width", "2048"), ("watermark", "true"))),
                      ("upload", (("server", "portal.example.com"), ("retries", "3"), ("timeout", "60"))))),),
    ),
    Scenario(
        "bakery owner", ("weekend-market", "wholesale-orders", "menu-refresh", "staff-schedule"),
        (("sourdough_recipe", "Sourdough recipe"), ("supplier_list", "Supplier list"),
         ("allergen_chart", "Allergen chart"), ("market_checklist", "Market checklist"),
         ("staff_handbook", "Staff handbook"), ("cleaning_rota", "Cleaning rota"), ("catering_quote", "Catering quote"),
         ("price_list", "Price list"), ("oven_maintenance", "Oven maintenance")),
        ("Feed the starter at 8pm the night before.", "Flour delivery arrives every Tuesday morning.",
         "Label all nut-containing items in red.", "Bring the card reader and spare change float.",
         "Proof the croissants for two hours at room temperature.", "Wholesale invoices are due within fourteen days.",
         "Deep clean the proofing cabinet on Sundays.", "New seasonal menu launches in March."),
        ("croissant_tray", "sourdough_loaf", "market_stall", "cinnamon_rolls", "wedding_cake", "display_case",
         "shopfront", "baguettes", "lemon_tart", "team_photo", "flour_delivery", "macarons"),
        ("supplier_voicemail", "radio_ad_draft", "shop_playlist", "order_by_phone", "staff_meeting"),
        (("orders", (("Customer", "person"), ("Pickup", "date"), ("Item", "pick:Sourdough|Croissants|Cake|Baguette"),
                     ("Total", "money:6:240"))),
         ("ingredients", (("Ingredient", "pick:Flour|Butter|Sugar|Eggs|Yeast|Chocolate"), ("Kg", "int:2:80"),
                          ("Cost", "money:3:190"))),
         ("daily_sales", (("Date", "date"), ("Loaves", "int:20:140"), ("Pastries", "int:30:220"),
                          ("Revenue", "money:300:2200")))),
        (("pos-sync", ("synced 57 transactions", "daily totals uploaded"), ("card terminal offline", "sync conflict")),
         ("oven-monitor", ("deck oven at 230C", "steam cycle complete"), ("temperature sensor fault", "door open"))),
        (("daily_report", ("python3 ~/bin/sales_summary.py --today", "echo 'report written'")),
         ("backup_orders", ("tar czf ~/backups/orders_$(date +%F).tar.gz ~/Documents/orders",)),
         ("print_labels", ("lp -d label_printer ~/Documents/labels/today.pdf",))),
        (("pos", (("terminal", (("device", "reader-02"), ("currency", "EUR"), ("tips", "false"))),
                  ("sync", (("interval", "15"), ("endpoint", "pos.example.net"), ("retries", "5"))))),),
    ),
    Scenario(
        "graduate student", ("thesis", "lab-meetings", "conference-talk", "literature"),
        (("thesis_outline", "Thesis outline"), ("chapter2_draft", "Chapter 2 draft"),
         ("reading_list", "Reading list"), ("advisor_feedback", "Advisor feedback"), ("lab_protocol", "Lab protocol"),
         ("grant_proposal", "Grant proposal"), ("defense_plan", "Defense plan"), ("ethics_form", "Ethics form"),
         ("poster_text", "Poster text")),
        ("Rerun the baseline with five seeds before the next meeting.",
         "Chapter two needs a clearer research question.",
         "Submit the ethics amendment by the end of the month.", "Figures must use the department colour scheme.",
         "Ask the librarian about interlibrary loans.", "Cite the 2019 survey in the related work section.",
         "Practice talk is scheduled for Thursday at noon.", "Back up the raw data to the lab server weekly."),
        ("poster_session", "lab_bench", "whiteboard_notes", "conference_hall", "sample_plate", "microscope_view",
         "group_photo", "field_site", "figure_draft", "campus_library", "slide_preview", "instrument_setup"),
        ("interview_01", "advisor_meeting", "lecture_recording", "talk_rehearsal", "seminar_notes"),
        (("experiments", (("Run", "id:RUN"), ("Date", "date"), ("Accuracy", "int:61:97"), ("Minutes", "int:4:180"))),
         ("references", (("Author", "person"), ("Year", "int:1998:2024"), ("Venue", "pick:NeurIPS|ICML|ACL|Nature")),),
         ("participants", (("Participant", "id:P"), ("Age", "int:19:64"), ("Group", "pick:Control|Treatment")))),
        (("train-job", ("epoch 12 loss 0.4312", "checkpoint saved"), ("CUDA out of memory", "dataloader worker died")),
         ("sync-data", ("pulled 3 new files from lab server", "sync complete"), ("ssh connection refused",
                                                                                 "disk quota exceeded"))),
        (("run_experiments", ("python3 train.py --config configs/base.yaml", "python3 eval.py --split test")),
         ("build_thesis", ("latexmk -pdf thesis.tex", "echo 'thesis.pdf rebuilt'")),
         ("sync_results", ("rsync -av results/ lab-server:~/results/",))),
        (("trainer", (("model", (("layers", "12"), ("hidden_size", "768"), ("dropout", "0.1"))),
                      ("training", (("batch_size", "32"), ("learning_rate", "0.0003"), ("epochs", "20"))))),),
    ),
    Scenario(
        "web developer", ("client-site", "portfolio", "api-service", "design-system"),
        (("project_brief", "Project brief"), ("deploy_notes", "Deploy notes"), ("api_spec", "API spec"),
         ("style_guide", "Style guide"), ("meeting_minutes", "Meeting minutes"), ("bug_triage", "Bug triage"),
         ("release_checklist", "Release checklist"), ("estimate", "Estimate"), ("handover", "Handover notes")),
        ("Staging deploys happen automatically on merge.", "Rotate the API keys before launch.",
         "The client wants the contact form on every page.", "Keep images under 200 KB for mobile.",
         "Run the accessibility audit before each release.", "Database migrations run during the maintenance window.",
         "Invoice the second milestone after sign-off.", "Use the shared colour tokens, not raw hex values."),
        ("homepage_mockup", "mobile_layout", "logo_draft", "hero_banner", "team_headshot", "icon_set",
         "dashboard_screen", "login_page", "error_state", "footer_design", "whiteboard_sketch", "color_palette"),
        ("standup_recording", "client_feedback_call", "podcast_episode", "demo_voiceover", "design_review"),
        (("timesheet", (("Date", "date"), ("Task", "pick:Frontend|Backend|Review|Meeting|Deploy"),
                        ("Hours", "int:1:9"))),
         ("invoices", (("Invoice", "id:INV"), ("Client", "person"), ("Amount", "money:400:7800"))),
         ("uptime", (("Date", "date"), ("Requests", "int:1200:98000"), ("Errors", "int:0:140")))),
        (("nginx", ("GET /index.html 200", "GET /api/health 200"), ("upstream timed out", "502 Bad Gateway")),
         ("deploy", ("build finished in 48s", "released version 2.4.1"), ("migration failed", "rollback triggered"))),
        (("deploy", ("git pull --ff-only", "npm ci", "npm run build", "rsync -a dist/ web:/var/www/site/")),
         ("db_backup", ("pg_dump app > ~/backups/app_$(date +%F).sql",)),
         ("lint_all", ("npx eslint src/", "npx stylelint 'src/**/*.css'"))),
        (("devserver", (("server", (("host", "127.0.0.1"), ("port", "8080"), ("workers", "2"))),
                        ("database", (("name", "app_dev"), ("user", "developer"), ("pool_size", "5"))))),),
    ),
    Scenario(
        "travel planner", ("japan-trip", "family-reunion", "road-trip", "honeymoon"),
        (("itinerary", "Itinerary"), ("packing_list", "Packing list"), ("visa_checklist", "Visa checklist"),
         ("hotel_bookings", "Hotel bookings"), ("budget_notes", "Budget notes"),
         ("restaurant_ideas", "Restaurant ideas"),
         ("emergency_contacts", "Emergency contacts"), ("rail_pass_info", "Rail pass info"),
         ("day_trips", "Day trips")),
        ("Check in online twenty-four hours before the flight.", "Rail pass must be activated at the airport.",
         "Book the ryokan dinner at least a week ahead.", "Keep copies of passports in the shared folder.",
         "Travel insurance covers cancellations up to 5000.", "Pack adapters for type A sockets.",
         "The museum is closed on Mondays.", "Meet at the hotel lobby at 8am on day three."),
        ("temple_gate", "mountain_view", "street_food", "train_station", "hotel_room", "sunset_beach",
         "old_town", "family_dinner", "lake_reflection", "market_stall", "airport_gate", "night_skyline"),
        ("tour_guide_notes", "street_musicians", "voice_memo_directions", "hotel_confirmation_call", "ambient_rain"),
        (("budget", (("Date", "date"), ("Category", "pick:Transport|Hotel|Food|Tickets|Souvenirs"),
                     ("Cost", "money:5:640"))),
         ("flights", (("Flight", "id:FL"), ("Date", "date"), ("Seat", "pick:12A|14C|22F|31B"))),
         ("contacts", (("Name", "person"), ("Role", "pick:Guide|Host|Driver|Agent"), ("Phone", "id:+1555")))),
        (("photo-sync", ("uploaded 128 photos", "album shared with family"), ("wifi unavailable", "quota exceeded")),
         ("price-watch", ("fare unchanged", "new low fare found"), ("site returned 503", "parse error in fare page"))),
        (("sync_photos", ("rclone copy ~/Pictures/trip remote:trip-photos",)),
         ("convert_currency", ("python3 ~/bin/fx.py --from JPY --to EUR",)),
         ("offline_maps", ("wget -q -O ~/Downloads/map.pdf https://maps.example.org/kyoto.pdf",))),
        (("tripplanner", (("general", (("home_currency", "EUR"), ("timezone", "Asia/Tokyo"), ("units", "metric"))),
                          ("alerts", (("price_drop", "true"), ("threshold", "50"), ("email", "me@example.org"))))),),
    ),
    Scenario(
        "HR recruiter", ("spring-hiring", "onboarding", "policies", "interviews"),
        (("job_description", "Job description"), ("interview_guide", "Interview guide"),
         ("offer_template", "Offer template"), ("onboarding_plan", "Onboarding plan"), ("leave_policy", "Leave policy"),
         ("benefits_summary", "Benefits summary"), ("referral_program", "Referral program"),
         ("exit_checklist", "Exit checklist"), ("salary_bands", "Salary bands")),
        ("Schedule the panel interview within five working days.", "Send the offer letter after reference checks.",
         "New starters get laptops on their first morning.", "Remote staff receive a home office allowance.",
         "Keep candidate data for no longer than six months.", "Update the careers page every Friday.",
         "Probation reviews happen after ninety days.", "Referral bonuses are paid after three months."),
        ("career_fair", "office_tour", "team_lunch", "welcome_pack", "badge_photo", "training_room",
         "offsite_group", "interview_room", "booth_banner", "new_hires", "lobby", "workshop"),
        ("candidate_screen_01", "panel_debrief", "policy_briefing", "reference_call", "town_hall"),
        (("candidates", (("Candidate", "person"), ("Applied", "date"), ("Stage", "pick:Screen|Interview|Offer|Hired"))),
         ("headcount", (("Team", "pick:Sales|Support|Engineering|Finance"), ("Open Roles", "int:1:9"),
                        ("Budget", "money:40000:140000"))),
         ("training", (("Employee", "person"), ("Course", "pick:Safety|Privacy|Leadership"), ("Completed", "date")))),
        (("ats-import", ("imported 23 applications", "duplicates merged"), ("mailbox login failed", "bad CSV row")),
         ("payroll-export", ("export generated", "file sent to payroll"), ("missing cost centre", "SFTP refused"))),
        (("export_candidates", ("python3 ~/bin/ats_export.py --stage interview",)),
         ("archive_applications", ("tar czf ~/archive/applications_$(date +%Y%m).tar.gz ~/Documents/applications",)),
         ("send_reminders", ("python3 ~/bin/remind.py --days 3",))),
        (("ats", (("account", (("workspace", "acme-hiring"), ("region", "eu"), ("language", "en"))),
                  ("notifications", (("digest", "daily"), ("new_applicant", "true"), ("quiet_hours", "22-7"))))),),
    ),
    Scenario(
        "freelance accountant", ("client-returns", "quarterly-vat", "payroll", "audit-prep"),
        (("engagement_letter", "Engagement letter"), ("tax_checklist", "Tax checklist"),
         ("receipt_policy", "Receipt policy"), ("vat_notes", "VAT notes"), ("client_intake", "Client intake"),
         ("fee_schedule", "Fee schedule"), ("deadline_calendar", "Deadline calendar"),
         ("audit_request", "Audit request"),
         ("payroll_guide", "Payroll guide")),
        ("Quarterly VAT returns are due one month after quarter end.",
         "Ask the client for the missing March receipts.",
         "Mileage is claimed at the standard rate.", "Keep records for six years.", "Reconcile the bank feed weekly.",
         "Payroll runs on the 25th of each month.", "Send the draft accounts for approval before filing.",
         "Confirm the client's registered address."),
        ("receipt_scan", "office_desk", "signed_form", "whiteboard_plan", "invoice_photo", "calculator",
         "client_meeting", "filing_cabinet", "bank_letter", "mileage_log", "conference_badge", "desk_setup"),
        ("client_call_recap", "dictation_notes", "webinar_tax_update", "voicemail_bank", "team_sync"),
        (("ledger", (("Date", "date"), ("Account", "pick:Sales|Rent|Utilities|Travel|Supplies"),
                     ("Debit", "money:10:5000"))),
         ("clients", (("Client", "person"), ("Year End", "date"), ("Fee", "money:300:4200"))),
         ("mileage", (("Date", "date"), ("Trip", "pick:Client visit|Bank|Post office|Training"), ("Km", "int:3:220")))),
        (("bank-feed", ("imported 142 transactions", "rules applied"), ("token expired", "duplicate transaction")),
         ("backup", ("nightly backup complete", "retention pruned"), ("destination full", "checksum mismatch"))),
        (("reconcile", ("python3 ~/bin/reconcile.py --month last",)),
         ("backup_books", ("rsync -a ~/Documents/books/ /mnt/nas/books/",)),
         ("generate_invoices", ("python3 ~/bin/invoices.py --draft",))),
        (("ledger", (("company", (("name", "Bright Books"), ("currency", "GBP"), ("fiscal_start", "04-06"))),
                     ("export", (("format", "csv"), ("decimal", "."), ("include_zero", "false"))))),),
    ),
    Scenario(
        "music teacher", ("spring-recital", "lesson-plans", "student-progress", "studio-admin"),
        (("recital_program", "Recital program"), ("lesson_plan", "Lesson plan"), ("practice_log", "Practice log"),
         ("studio_policy", "Studio policy"), ("repertoire_list", "Repertoire list"), ("exam_dates", "Exam dates"),
         ("parent_newsletter", "Parent newsletter"), ("tuning_notes", "Tuning notes"), ("theory_quiz", "Theory quiz")),
        ("Recital dress rehearsal starts at 5pm.", "Students should practise scales for ten minutes daily.",
         "Missed lessons can be made up within two weeks.", "Grade three exams are in June.",
         "Order new method books before September.", "The piano tuner visits every six months.",
         "Send the newsletter on the first of each month.", "Duet pairs are listed on the program."),
        ("recital_stage", "piano_keys", "student_award", "sheet_music", "violin_case", "studio_room",
         "group_class", "metronome", "concert_poster", "duet_practice", "choir_photo", "guitar_lesson"),
        ("scale_practice", "recital_take_1", "minuet_in_g", "ear_training_set", "duet_rehearsal", "warmup_exercises"),
        (("students", (("Student", "person"), ("Instrument", "pick:Piano|Violin|Guitar|Voice"), ("Grade", "int:1:8"))),
         ("payments", (("Date", "date"), ("Student", "person"), ("Amount", "money:25:320"))),
         ("attendance", (("Date", "date"), ("Lessons", "int:3:24"), ("Missed", "int:0:5")))),
        (("recorder", ("recording saved", "normalized audio"), ("input device busy", "disk full")),
         ("calendar-sync", ("12 lessons synced", "reminder sent"), ("calendar API quota exceeded", "auth expired"))),
        (("convert_recordings", ("for f in ~/Music/raw/*.wav; do lame \"$f\"; done",)),
         ("send_reminders", ("python3 ~/bin/lesson_reminders.py --tomorrow",)),
         ("backup_music", ("rsync -a ~/Music/ /mnt/usb/music/",))),
        (("recorder", (("audio", (("sample_rate", "44100"), ("channels", "2"), ("format", "wav"))),
                       ("storage", (("folder", "~/Music/raw"), ("keep_days", "30"), ("auto_normalize", "true"))))),),
    ),
    Scenario(
        "IT administrator", ("server-migration", "inventory", "security-audit", "helpdesk"),
        (("runbook", "Runbook"), ("network_map", "Network map"), ("password_policy", "Password policy"),
         ("incident_report", "Incident report"), ("backup_plan", "Backup plan"), ("asset_register", "Asset register"),
         ("onboarding_steps", "Onboarding steps"), ("vendor_contacts", "Vendor contacts"),
         ("change_request", "Change request")),
        ("Patch the file server on the second Tuesday.", "Rotate the backup tapes every Friday.",
         "New laptops need disk encryption before handover.", "Escalate outages longer than thirty minutes.",
         "Firewall rules are reviewed each quarter.", "Test restores monthly from the offsite copy.",
         "Printer drivers are on the shared drive.", "Document every change in the change log."),
        ("server_rack", "cable_mess", "network_diagram", "new_switch", "ups_panel", "desk_setup",
         "datacenter_aisle", "patch_panel", "laptop_pile", "whiteboard_plan", "error_screen", "router_lights"),
        ("incident_bridge_call", "vendor_support_call", "training_session", "voicemail_helpdesk", "change_board"),
        (("assets", (("Asset", "id:LT"), ("Owner", "person"), ("Purchased", "date"))),
         ("tickets", (("Ticket", "id:HD"), ("Opened", "date"), ("Priority", "pick:Low|Medium|High|Urgent"))),
         ("licenses", (("Product", "pick:Office|Antivirus|VPN|Backup|CAD"), ("Seats", "int:5:250"),
                       ("Cost", "money:100:9000")))),
        (("backup", ("job nightly-full completed", "pruned 4 old snapshots"),
          ("snapshot failed", "repository locked")),
         ("sshd", ("Accepted publickey for admin", "session closed"),
          ("Failed password for root", "Invalid user test"))),
        (("check_disks", ("df -h | awk '$5+0 > 85'",)),
         ("rotate_logs", ("find /var/log/app -name '*.log' -mtime +14 -delete",)),
         ("update_hosts", ("ansible-playbook -i inventory.ini patch.yml",))),
        (("monitor", (("alerts", (("email", "ops@example.com"), ("threshold", "85"), ("interval", "300"))),
                      ("agent", (("hostname", "files01"), ("log_level", "info"), ("retries", "3"))))),),
    ),
    Scenario(
        "community garden organizer", ("plot-allocation", "harvest-festival", "volunteers", "grants"),
        (("plot_rules", "Plot rules"), ("planting_calendar", "Planting calendar"),
         ("volunteer_roster", "Volunteer roster"),
         ("grant_application", "Grant application"), ("tool_shed_inventory", "Tool shed inventory"),
         ("compost_guide", "Compost guide"), ("festival_plan", "Festival plan"), ("meeting_agenda", "Meeting agenda"),
         ("waitlist_policy", "Waitlist policy")),
        ("Water the seedlings in the greenhouse every morning.", "Plot fees are due by the end of March.",
         "Tool shed code changes each season.", "Volunteers meet at the gate on Saturdays at 9am.",
         "Compost bins are turned every two weeks.", "The harvest festival needs six stall volunteers.",
         "Keep paths clear of hoses and tools.", "The grant report is due in October."),
        ("tomato_beds", "greenhouse", "harvest_table", "volunteer_day", "sunflowers", "compost_bins",
         "tool_shed", "pumpkin_patch", "seedlings", "festival_stall", "garden_gate", "bee_hotel"),
        ("meeting_recording", "radio_interview", "bird_song", "volunteer_briefing", "festival_announcement"),
        (("plots", (("Plot", "id:P"), ("Holder", "person"), ("Since", "date"))),
         ("harvest", (("Date", "date"), ("Crop", "pick:Tomatoes|Beans|Squash|Lettuce|Potatoes"), ("Kg", "int:1:60"))),
         ("donations", (("Donor", "person"), ("Date", "date"), ("Amount", "money:5:500")))),
        (("irrigation", ("zone 2 watered 15 min", "schedule loaded"), ("valve 3 stuck", "low water pressure")),
         ("newsletter", ("sent to 184 members", "2 bounces removed"), ("SMTP auth failed", "template missing"))),
        (("water_schedule", ("python3 ~/bin/irrigate.py --zone all --minutes 15",)),
         ("send_newsletter", ("python3 ~/bin/newsletter.py --send",)),
         ("backup_photos", ("rsync -a ~/Pictures/garden/ /mnt/usb/garden/",))),
        (("irrigation", (("schedule", (("start", "06:00"), ("minutes", "15"), ("days", "mon,wed,fri"))),
                         ("sensors", (("moisture_min", "30"), ("poll_seconds", "600"), ("units", "percent"))))),),
    ),
)


def _value(rng: random.Random, spec: str, start: date) -> str:
    kind, _, arg = spec.partition(":")
    if kind == "person":
        return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
    if kind == "date":
        return (start + timedelta(days=rng.randint(0, 330))).isoformat()
    if kind == "pick":
        return rng.choice(arg.split("|"))
    if kind == "id":
        return f"{arg}{rng.randint(1000, 9999)}"
    low, high = (int(x) for x in arg.split(":"))
    return str(rng.randint(low, high)) if kind == "int" else f"{rng.randint(low * 100, high * 100) / 100:.2f}"


def _log_lines(rng: random.Random, service: str, infos: tuple[str, ...], errors: tuple[str, ...],
               day: date) -> list[str]:
    lines, second = [], rng.randint(6 * 3600, 9 * 3600)
    for _ in range(rng.randint(10, 18)):
        second += rng.randint(20, 1400)
        level = rng.choices(("INFO", "WARN", "ERROR"), weights=(6, 2, 2))[0]
        text = rng.choice(errors if level == "ERROR" else infos)
        hh, mm, ss = second // 3600 % 24, second // 60 % 60, second % 60
        lines.append(f"{day.isoformat()} {hh:02d}:{mm:02d}:{ss:02d} {level} {service}: {text}")
    return lines


def generate_pool(rng: random.Random, scenario: str | None = None) -> dict[str, Any]:
    """A pool for `scenario` (a `Scenario.name`; random when None), shaped as `POOL_SCHEMA`."""
    sc = next((s for s in SCENARIOS if s.name == scenario), None) or rng.choice(SCENARIOS)
    start = date(rng.choice((2022, 2023, 2024, 2025)), rng.randint(1, 3), 1)
    documents = []
    for stem, title in rng.sample(sc.documents, len(sc.documents)):
        body = rng.sample(sc.notes, rng.randint(3, 6))
        documents.append({"stem": stem, "title": title, "lines": [title, "", *body]})
    camera = rng.choice(("IMG", "DSC", "PXL", "DSCF"))
    base = rng.randint(1000, 8000)
    numbers = [base]
    for _ in range(5):
        numbers.append(numbers[-1] + rng.randint(1, 9))
    photos = [*rng.sample(sc.photos, len(sc.photos)), *(f"{camera}_{n}" for n in numbers)]
    tables = []
    for stem, columns in sc.tables:
        rows = [[_value(rng, spec, start) for _, spec in columns] for _ in range(rng.randint(5, 12))]
        tables.append({"stem": stem, "header": [name for name, _ in columns], "rows": rows})
    logs = [{"service": s, "lines": _log_lines(rng, s, infos, errors, start + timedelta(days=rng.randint(0, 300)))}
            for s, infos, errors in sc.services]
    scripts = [{"stem": stem, "lines": ["#!/bin/bash", f"# {stem.replace('_', ' ')}", "set -e", *commands]}
               for stem, commands in sc.scripts]
    settings = [{"app": app, "sections": {name: dict(keys) for name, keys in sections}}
                for app, sections in sc.settings]
    return {
        "scenario": sc.name,
        "owner": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
        "projects": rng.sample(sc.projects, len(sc.projects)),
        "documents": documents,
        "photos": photos,
        "tracks": rng.sample(sc.tracks, len(sc.tracks)),
        "tables": tables,
        "logs": logs,
        "scripts": scripts,
        "settings": settings,
    }


@guarded("pool")
def check_pool(pool: Any, values: Any = None) -> str:
    """'' when a model's pool suits every OS family: project, document, photo, track, table, script, log and
    settings names unique (they become file and folder names side by side), and every table row as wide as
    its header."""
    for table in pool["tables"]:
        width = len(table["header"])
        for i, row in enumerate(table["rows"], start=1):
            if len(row) != width:
                return f"table {table['stem']!r} row {i} has {len(row)} cells but the header has {width}"
    return first_problem(
        unique(pool["projects"], "project names"),
        unique([d["stem"] for d in pool["documents"]], "document stems"),
        unique(pool["photos"], "photo names"),
        unique(pool["tracks"], "track names"),
        unique([t["stem"] for t in pool["tables"]], "table stems"),
        unique([s["stem"] for s in pool["scripts"]], "script stems"),
        unique([g["service"] for g in pool["logs"]], "log services"),
        unique([s["app"] for s in pool["settings"]], "settings apps"))
