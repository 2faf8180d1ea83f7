"""Offline realistic content for Chrome tasks: a person's bookmark set built from real, well-known sites.

A persona (developer, student, home cook, ...) draws a few site categories; each becomes a bookmark folder
with a plausible name, a few sites sit loose on the bookmarks bar or in "Other bookmarks", and two more sites
of each folder's kind stay unbookmarked (`extra`, with the folder they would fit) for tasks that add them.
The JSON shape is what the `content` LLM node asks a model for (workflows/prompts/chrome_content.txt),
checked by `CONTENT_SCHEMA`.
"""

from __future__ import annotations

import random
from typing import Any

from workflows.answer_checks import first_problem, guarded, unique

_LINK: dict[str, Any] = {"type": "object", "additionalProperties": False, "required": ["name", "url"],
         "properties": {"name": {"type": "string", "minLength": 2, "maxLength": 40},
                        "url": {"type": "string", "pattern": "^https://[a-z0-9.-]+\\.[a-z]{2,}(/\\S*)?$"}}}
CONTENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["persona", "profile_name", "bar", "folders", "other", "extra"],
    "properties": {
        "persona": {"type": "string", "minLength": 3},
        "profile_name": {"type": "string", "minLength": 2, "maxLength": 30},
        "bar": {"type": "array", "minItems": 2, "maxItems": 6, "items": _LINK},
        "folders": {"type": "array", "minItems": 3, "maxItems": 4, "items": {
            "type": "object", "additionalProperties": False, "required": ["name", "bookmarks"],
            "properties": {"name": {"type": "string", "minLength": 2, "maxLength": 30},
                           "bookmarks": {"type": "array", "minItems": 3, "maxItems": 6, "items": _LINK}}}},
        "other": {"type": "array", "minItems": 2, "maxItems": 5, "items": _LINK},
        "extra": {"type": "array", "minItems": 5, "maxItems": 8, "items": {
            "type": "object", "additionalProperties": False, "required": ["name", "url", "folder"],
            "properties": {**_LINK["properties"], "folder": {"type": ["string", "null"]}}}},
    },
}

#: category -> (folder names a person would use, [(site name, url)]).
SITES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = {
    "news": (("News", "Daily reads", "Headlines"), (
        ("BBC News", "https://www.bbc.com/news"), ("Reuters", "https://www.reuters.com/"),
        ("The Guardian", "https://www.theguardian.com/international"), ("AP News", "https://apnews.com/"),
        ("NPR", "https://www.npr.org/"), ("Al Jazeera", "https://www.aljazeera.com/"),
        ("The Verge", "https://www.theverge.com/"), ("Ars Technica", "https://arstechnica.com/"),
        ("Hacker News", "https://news.ycombinator.com/"), ("The Atlantic", "https://www.theatlantic.com/"))),
    "dev_docs": (("Docs", "Reference", "Dev docs"), (
        ("Python Docs", "https://docs.python.org/3/"), ("MDN Web Docs", "https://developer.mozilla.org/en-US/"),
        ("The Rust Book", "https://doc.rust-lang.org/book/"), ("Go Documentation", "https://go.dev/doc/"),
        ("React Docs", "https://react.dev/learn"), ("Django Docs", "https://docs.djangoproject.com/en/5.0/"),
        ("TypeScript Handbook", "https://www.typescriptlang.org/docs/handbook/intro.html"),
        ("Kubernetes Docs", "https://kubernetes.io/docs/home/"),
        ("PostgreSQL Manual", "https://www.postgresql.org/docs/current/"), ("Docker Docs", "https://docs.docker.com/"))),
    "dev_tools": (("Dev tools", "Tools", "Coding"), (
        ("GitHub", "https://github.com/"), ("GitLab", "https://gitlab.com/"),
        ("Stack Overflow", "https://stackoverflow.com/"), ("regex101", "https://regex101.com/"),
        ("Can I use", "https://caniuse.com/"), ("CodePen", "https://codepen.io/"),
        ("Crontab Guru", "https://crontab.guru/"), ("Excalidraw", "https://excalidraw.com/"),
        ("npm", "https://www.npmjs.com/"), ("PyPI", "https://pypi.org/"))),
    "shopping": (("Shopping", "Stores", "Wishlist"), (
        ("Amazon", "https://www.amazon.com/"), ("eBay", "https://www.ebay.com/"), ("Etsy", "https://www.etsy.com/"),
        ("IKEA", "https://www.ikea.com/us/en/"), ("Best Buy", "https://www.bestbuy.com/"),
        ("Target", "https://www.target.com/"), ("Costco", "https://www.costco.com/"),
        ("Newegg", "https://www.newegg.com/"), ("REI", "https://www.rei.com/"), ("Wayfair", "https://www.wayfair.com/"))),
    "finance": (("Finance", "Money", "Investing"), (
        ("Yahoo Finance", "https://finance.yahoo.com/"), ("Bloomberg", "https://www.bloomberg.com/"),
        ("Investopedia", "https://www.investopedia.com/"), ("NerdWallet", "https://www.nerdwallet.com/"),
        ("IRS", "https://www.irs.gov/"), ("Morningstar", "https://www.morningstar.com/"),
        ("Vanguard", "https://investor.vanguard.com/"), ("MarketWatch", "https://www.marketwatch.com/"))),
    "travel": (("Travel", "Trip planning", "Vacation"), (
        ("Google Maps", "https://www.google.com/maps"), ("Booking.com", "https://www.booking.com/"),
        ("Airbnb", "https://www.airbnb.com/"), ("Skyscanner", "https://www.skyscanner.com/"),
        ("Kayak", "https://www.kayak.com/"), ("Tripadvisor", "https://www.tripadvisor.com/"),
        ("Lonely Planet", "https://www.lonelyplanet.com/"), ("Rome2Rio", "https://www.rome2rio.com/"))),
    "cooking": (("Recipes", "Cooking", "Kitchen"), (
        ("Serious Eats", "https://www.seriouseats.com/"), ("BBC Good Food", "https://www.bbcgoodfood.com/"),
        ("Allrecipes", "https://www.allrecipes.com/"), ("NYT Cooking", "https://cooking.nytimes.com/"),
        ("Budget Bytes", "https://www.budgetbytes.com/"),
        ("King Arthur Baking", "https://www.kingarthurbaking.com/recipes"),
        ("Bon Appetit", "https://www.bonappetit.com/"), ("Smitten Kitchen", "https://smittenkitchen.com/"))),
    "learning": (("Learning", "Courses", "Study"), (
        ("Coursera", "https://www.coursera.org/"), ("Khan Academy", "https://www.khanacademy.org/"),
        ("edX", "https://www.edx.org/"), ("MIT OpenCourseWare", "https://ocw.mit.edu/"),
        ("Wikipedia", "https://en.wikipedia.org/wiki/Main_Page"), ("Duolingo", "https://www.duolingo.com/"),
        ("arXiv", "https://arxiv.org/"), ("Google Scholar", "https://scholar.google.com/"))),
    "productivity": (("Work", "Productivity", "Office"), (
        ("Gmail", "https://mail.google.com/mail/u/0/"), ("Google Calendar", "https://calendar.google.com/calendar/r"),
        ("Google Drive", "https://drive.google.com/drive/my-drive"), ("Notion", "https://www.notion.so/"),
        ("Trello", "https://trello.com/"), ("Slack", "https://app.slack.com/client"), ("Zoom", "https://zoom.us/"),
        ("Todoist", "https://app.todoist.com/"), ("Dropbox", "https://www.dropbox.com/home"),
        ("Outlook", "https://outlook.live.com/mail/"))),
    "design": (("Design", "Inspiration", "Assets"), (
        ("Figma", "https://www.figma.com/"), ("Dribbble", "https://dribbble.com/"),
        ("Behance", "https://www.behance.net/"), ("Coolors", "https://coolors.co/"),
        ("Google Fonts", "https://fonts.google.com/"), ("Unsplash", "https://unsplash.com/"),
        ("Canva", "https://www.canva.com/"), ("The Noun Project", "https://thenounproject.com/"))),
    "media": (("Watch and listen", "Media", "Fun"), (
        ("YouTube", "https://www.youtube.com/"), ("Netflix", "https://www.netflix.com/browse"),
        ("Spotify", "https://open.spotify.com/"), ("Twitch", "https://www.twitch.tv/"),
        ("IMDb", "https://www.imdb.com/"), ("Letterboxd", "https://letterboxd.com/"),
        ("Goodreads", "https://www.goodreads.com/"), ("Reddit", "https://www.reddit.com/"))),
    "fitness": (("Fitness", "Sports", "Health"), (
        ("Strava", "https://www.strava.com/dashboard"), ("ESPN", "https://www.espn.com/"),
        ("MyFitnessPal", "https://www.myfitnesspal.com/"), ("Mayo Clinic", "https://www.mayoclinic.org/"),
        ("BBC Sport", "https://www.bbc.com/sport"), ("Garmin Connect", "https://connect.garmin.com/modern/"),
        ("Runner's World", "https://www.runnersworld.com/"))),
    "cloud": (("Cloud", "Infra", "Ops"), (
        ("AWS Console", "https://console.aws.amazon.com/"), ("Google Cloud Console", "https://console.cloud.google.com/"),
        ("Azure Portal", "https://portal.azure.com/"), ("Grafana Docs", "https://grafana.com/docs/grafana/latest/"),
        ("Terraform Registry", "https://registry.terraform.io/"), ("Docker Hub", "https://hub.docker.com/"),
        ("Cloudflare Dashboard", "https://dash.cloudflare.com/"), ("Vercel", "https://vercel.com/dashboard"))),
    "home": (("Home projects", "DIY", "House"), (
        ("Home Depot", "https://www.homedepot.com/"), ("Lowe's", "https://www.lowes.com/"),
        ("Instructables", "https://www.instructables.com/"), ("This Old House", "https://www.thisoldhouse.com/"),
        ("Houzz", "https://www.houzz.com/"), ("Family Handyman", "https://www.familyhandyman.com/"))),
    "science": (("Science", "Research", "Papers"), (
        ("NASA", "https://www.nasa.gov/"), ("Nature", "https://www.nature.com/"),
        ("Scientific American", "https://www.scientificamerican.com/"),
        ("Quanta Magazine", "https://www.quantamagazine.org/"), ("PubMed", "https://pubmed.ncbi.nlm.nih.gov/"),
        ("New Scientist", "https://www.newscientist.com/"))),
}

#: persona -> the categories their bookmarks come from (first ones weigh most).
PERSONAS: dict[str, tuple[str, ...]] = {
    "backend developer": ("dev_docs", "dev_tools", "cloud", "news", "productivity", "media"),
    "frontend developer": ("dev_docs", "dev_tools", "design", "news", "media", "productivity"),
    "graduate student": ("learning", "science", "productivity", "news", "cooking", "media"),
    "travel planner": ("travel", "finance", "news", "cooking", "shopping", "productivity"),
    "home cook": ("cooking", "shopping", "media", "home", "fitness", "news"),
    "financial analyst": ("finance", "news", "productivity", "travel", "learning", "media"),
    "product designer": ("design", "productivity", "shopping", "media", "dev_tools", "news"),
    "DevOps engineer": ("cloud", "dev_tools", "dev_docs", "news", "productivity", "fitness"),
    "new homeowner": ("home", "shopping", "finance", "cooking", "news", "media"),
    "amateur runner": ("fitness", "cooking", "media", "travel", "shopping", "news"),
    "science journalist": ("science", "news", "learning", "productivity", "media", "travel"),
    "small business owner": ("productivity", "finance", "shopping", "design", "news", "learning"),
}
PROFILE_NAMES = ("Person 1", "Work", "Personal", "Maya", "Daniel", "Priya", "Tom", "Lena", "Carlos", "Aiko",
                 "Jonas", "Grace", "Omar", "Home")


def generate_profile(rng: random.Random, *, persona: str | None = None, n_folders: int = 3) -> dict[str, Any]:
    """One person's bookmark set (the content LLM node's offline answer)."""
    persona = persona or rng.choice(sorted(PERSONAS))
    cats = list(PERSONAS[persona])
    rng.shuffle(cats)
    pools = {c: rng.sample(SITES[c][1], len(SITES[c][1])) for c in cats}
    used_folder_names: set[str] = set()
    folders = []
    for cat in cats[:n_folders]:
        name = rng.choice([n for n in SITES[cat][0] if n not in used_folder_names])
        used_folder_names.add(name)
        folders.append({"name": name, "bookmarks": [_link(pools[cat].pop()) for _ in range(rng.randint(3, 4))]})
    extra = [{**_link(pools[cat].pop()), "folder": folder["name"]} for cat, folder in zip(cats, folders, strict=False)
             for _ in range(2)]
    rng.shuffle(extra)
    rest = [site for cat in cats for site in pools[cat]]
    rng.shuffle(rest)
    bar = [_link(rest.pop()) for _ in range(rng.randint(2, 4))]
    other = [_link(rest.pop()) for _ in range(rng.randint(2, 3))]
    return {"persona": persona, "profile_name": rng.choice(PROFILE_NAMES), "bar": bar, "folders": folders,
            "other": other, "extra": extra}


def _link(site: tuple[str, str]) -> dict[str, str]:
    return {"name": site[0], "url": site[1]}


@guarded("bookmarks")
def check_profile(profile: Any, values: Any = None) -> str:
    """'' when a model's bookmark set suits every Chrome family: folder names unique, and every site (bar,
    folders, other, extra) has its own URL and name (tasks find, move and rename bookmarks by them)."""
    links = [*profile["bar"], *(b for f in profile["folders"] for b in f["bookmarks"]), *profile["other"],
             *profile["extra"]]
    return first_problem(
        unique([f["name"] for f in profile["folders"]], "folder names"),
        unique([link["url"] for link in links], "bookmark URLs"),
        unique([link["name"] for link in links], "bookmark names"))
