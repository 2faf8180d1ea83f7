"""A small offline shop site for Chrome's web tasks (chrome.web_*): static pages shipped in the package, served on
loopback by Python's own web server, started by the task's launch command next to Chrome.

The site is drawn from the task's seed: one of a few shops, its categories and products (each product has a
look-alike in its category: the "3" beside the "2", the "GTX" beside the plain one), a store page with the address,
phone and opening hours, and one downloadable care guide per product. Its files live in the server's folder
(`Site.root`, a hidden folder of the home): the web server's document root, not a document of the person's.

Pages (all linked from the home page, so a person finds everything by clicking):
- `index.html`: the shop's name, its categories, three featured products and a link to the store page;
- `c/<category>.html`: the category's products, each with its price;
- `p/<product>.html`: the product's name (its `<h1>`), price, item number, a description and its care guide link;
- `files/<product>-care-guide.txt`: the care guide (a download);
- `store.html`: address, phone and the opening hours of each day.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from kit.dag import NodeContext, node
from kit.model import HOME, Asset
from preparers.ops.chrome_history import build_history
from workflows.chrome import kit as chc

HOST = "127.0.0.1"
#: The folder the web servers' document roots sit in: hidden, beside the person's own files.
WWW = f"{HOME}/.local/share/www"
HISTORY = f"{HOME}/.config/google-chrome/Default/History"

#: shop kind -> (names the shop may have, city, {category: [(product, look-alike, description), ...]})
SHOPS: dict[str, tuple[tuple[str, ...], str, dict[str, list[tuple[str, str, str]]]]] = {
    "outdoor": (("Pinecrest Outfitters", "Timberline Supply Co.", "Ridgeway Outdoor"), "Boulder, CO", {
        "Tents": [("Ridgeline 2 Tent", "Ridgeline 3 Tent", "A freestanding backpacking tent with two doors."),
                  ("Summit Dome 4", "Summit Dome 6", "A roomy family dome tent with a full-coverage fly."),
                  ("Cirrus Ultralight 1", "Cirrus Ultralight 2", "A trekking-pole shelter that packs very small.")],
        "Backpacks": [("Trailhead 28 Daypack", "Trailhead 22 Daypack", "A ventilated daypack with a hip belt."),
                      ("Switchback 55", "Switchback 65", "A multi-day pack with an adjustable torso length.")],
        "Footwear": [("Scree Runner", "Scree Runner GTX", "A grippy trail running shoe for rocky ground."),
                     ("Alder Mid Hiker", "Alder Low Hiker", "A leather hiking boot with a rubber toe cap.")],
        "Jackets": [("Drizzle Shell Jacket", "Drizzle Shell Pants", "A packable waterproof layer with taped seams."),
                    ("Emberdown Hoodie", "Emberdown Vest", "A warm down layer with a water-resistant face.")],
    }),
    "kitchen": (("Copper Kettle Kitchenware", "Whisk & Ladle Kitchen Goods", "Hearth Street Kitchen"), "Portland, OR", {
        "Cookware": [("Everyday Skillet 10in", "Everyday Skillet 12in", "A pre-seasoned cast iron skillet."),
                     ("Braiser 3.5 qt", "Braiser 5 qt", "An enamelled braiser for stews and roasts.")],
        "Knives": [("Chef's Knife 8in", "Chef's Knife 10in", "A forged stainless chef's knife with a full tang."),
                   ("Santoku 7in", "Santoku 5in", "A hollow-edge santoku for thin slicing.")],
        "Coffee": [("Pour-Over Kettle", "Pour-Over Kettle Electric", "A gooseneck kettle for a steady pour."),
                   ("Burr Grinder Classic", "Burr Grinder Pro", "A conical burr grinder with 40 settings.")],
        "Baking": [("Loaf Pan Set", "Loaf Pan Single", "Heavy-gauge loaf pans with a non-stick coating."),
                   ("Stand Mixer Bowl 5 qt", "Stand Mixer Bowl 6 qt", "A spare stainless mixing bowl.")],
    }),
    "cycling": (("Northgate Cycles", "Spoke & Chain", "Canal Street Bikes"), "Minneapolis, MN", {
        "Helmets": [("Aero Commuter Helmet", "Aero Commuter Helmet MIPS", "A vented city helmet with a rear light."),
                    ("Trail Enduro Helmet", "Trail Enduro Helmet Full", "A deep-coverage mountain bike helmet.")],
        "Lights": [("Beacon 800 Front Light", "Beacon 1200 Front Light", "A USB-rechargeable front light."),
                   ("Glow Tail Light", "Glow Tail Light Radar", "A bright rear light with a daytime flash.")],
        "Locks": [("Fortress U-Lock", "Fortress U-Lock Mini", "A hardened steel U-lock with a frame mount."),
                  ("Coil Cable Lock", "Coil Cable Lock Long", "A combination cable lock for short stops.")],
        "Bags": [("Pannier 20L", "Pannier 30L", "A waterproof roll-top pannier with quick-release hooks."),
                 ("Frame Bag Medium", "Frame Bag Large", "A frame bag that fits inside the front triangle.")],
    }),
}
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
STREETS = ("Pearl Street", "Alder Avenue", "Main Street", "Harbor Road", "Elm Street", "Market Square")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


@dataclass(frozen=True)
class Product:
    name: str
    category: str
    price: str  # "149.95", the number shown after the $ sign
    item: str  # the item number shown on its page, e.g. "PO-48213"
    description: str

    @property
    def page(self) -> str:
        """The page's path inside the site: p/<slug>.html."""
        return f"p/{slug(self.name)}.html"

    @property
    def guide(self) -> str:
        """The care guide's path inside the site: files/<slug>-care-guide.txt."""
        return f"files/{slug(self.name)}-care-guide.txt"


@dataclass(frozen=True)
class Site:
    name: str
    kind: str
    port: int
    products: tuple[Product, ...]
    address: str
    phone: str
    hours: tuple[tuple[str, str], ...]  # (day, "9:00 AM - 6:00 PM" or "Closed"), Monday first
    forms: bool = False  # with the pickup reservation form (reserve.html, sent to reserved.html by GET)

    @property
    def root(self) -> str:
        """The web server's document root (a hidden folder of the home)."""
        return f"{WWW}/{slug(self.name)}"

    @property
    def home(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def url(self, rel: str) -> str:
        return self.home + rel

    def categories(self) -> list[str]:
        return list(dict.fromkeys(p.category for p in self.products))

    def product(self, name: str) -> Product:
        return next(p for p in self.products if p.name == name)

    def twin(self, product: Product) -> Product:
        """The look-alike of `product` (drawn as its pair)."""
        pairs = SHOPS[self.kind][2][product.category]
        for a, b, _ in pairs:
            if product.name in (a, b):
                return self.product(b if product.name == a else a)
        raise KeyError(product.name)

    def launch(self) -> list[str]:
        """Start the web server on loopback in the background, then Chrome on the shop's home page."""
        serve = f"python3 -m http.server {self.port} --bind {HOST} --directory {self.root} >/dev/null 2>&1 &"
        return ["bash", "-c", f"{serve} exec google-chrome {self.home}"]

    def files(self) -> dict[str, bytes]:
        """Every file of the site: path inside the site -> bytes."""
        out = {"index.html": self._index(), "store.html": self._store()}
        for cat in self.categories():
            out[f"c/{slug(cat)}.html"] = self._category(cat)
        for p in self.products:
            out[p.page] = self._product(p)
            out[p.guide] = self._guide(p)
        if self.forms:
            out["reserve.html"], out["reserved.html"] = self._reserve(), self._reserved()
        return {rel: data for rel, data in sorted(out.items())}

    def assets(self) -> list[Asset]:
        return [Asset(f"{self.root}/{rel}", data) for rel, data in self.files().items()]

    # --- pages ------------------------------------------------------------------------------------

    def _page(self, title: str, body: str, up: str = "") -> bytes:
        nav = (f'<nav><a href="{up}index.html">Home</a> | '
               + " | ".join(f'<a href="{up}c/{slug(c)}.html">{_e(c)}</a>' for c in self.categories())
               + f' | <a href="{up}store.html">Store &amp; hours</a>'
               + (f' | <a href="{up}reserve.html">Reserve for pickup</a>' if self.forms else "") + "</nav>")
        text = (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                f"<title>{_e(title)} | {_e(self.name)}</title>\n</head>\n<body>\n"
                f"<header><p class=\"shop\">{_e(self.name)}</p>\n{nav}</header>\n<main>\n{body}\n</main>\n"
                f"<footer><p>{_e(self.name)}, {_e(self.address)}. Phone {_e(self.phone)}.</p></footer>\n"
                "</body>\n</html>\n")
        return text.encode()

    def _index(self) -> bytes:
        featured = self.products[::max(1, len(self.products) // 3)][:3]
        items = "\n".join(f'<li><a href="{p.page}">{_e(p.name)}</a> - ${p.price}</li>' for p in featured)
        cats = "\n".join(f'<li><a href="c/{slug(c)}.html">{_e(c)}</a></li>' for c in self.categories())
        body = (f"<h1>Welcome to {_e(self.name)}</h1>\n<h2>Shop by category</h2>\n<ul>\n{cats}\n</ul>\n"
                f"<h2>Featured</h2>\n<ul>\n{items}\n</ul>\n"
                '<p>Visiting us? See our <a href="store.html">store address and opening hours</a>.</p>')
        return self._page("Home", body)

    def _category(self, cat: str) -> bytes:
        rows = "\n".join(f'<li><a href="../{p.page}">{_e(p.name)}</a> - ${p.price}</li>'
                         for p in self.products if p.category == cat)
        return self._page(cat, f"<h1>{_e(cat)}</h1>\n<ul class=\"products\">\n{rows}\n</ul>", up="../")

    def _product(self, p: Product) -> bytes:
        body = (f"<h1>{_e(p.name)}</h1>\n<p class=\"price\">Price: ${p.price}</p>\n"
                f"<p class=\"item\">Item number: {p.item}</p>\n<p>{_e(p.description)}</p>\n"
                f'<p><a href="../c/{slug(p.category)}.html">More {_e(p.category.lower())}</a></p>\n'
                f'<p><a href="../{p.guide}" download>Download the care guide (TXT)</a></p>')
        return self._page(p.name, body, up="../")

    def _store(self) -> bytes:
        rows = "\n".join(f"<tr><td>{day}</td><td>{hours}</td></tr>" for day, hours in self.hours)
        body = (f"<h1>Our store</h1>\n<p class=\"address\">{_e(self.address)}</p>\n"
                f"<p class=\"phone\">Phone: {_e(self.phone)}</p>\n<h2>Opening hours</h2>\n"
                f"<table class=\"hours\">\n{rows}\n</table>")
        return self._page("Store & hours", body)

    def open_days(self) -> list[str]:
        return [day for day, hours in self.hours if hours != "Closed"]

    def _reserve(self) -> bytes:
        options = "\n".join(f'<option value="{slug(p.name)}">{_e(p.name)}</option>' for p in self.products)
        days = "\n".join(f'<option value="{d}">{d}</option>' for d in self.open_days())
        body = ("<h1>Reserve for pickup</h1>\n<p>Reserve an item and collect it in the store; pay when you pick it "
                'up.</p>\n<form action="reserved.html" method="get">\n'
                f'<p><label>Product <select name="product">\n{options}\n</select></label></p>\n'
                '<p><label>Quantity <input type="number" name="qty" value="1" min="1" max="9"></label></p>\n'
                f'<p><label>Pickup day <select name="day">\n{days}\n</select></label></p>\n'
                '<p><label>Your name <input type="text" name="name"></label></p>\n'
                '<p><button type="submit">Send reservation</button></p>\n</form>')
        return self._page("Reserve for pickup", body)

    def _reserved(self) -> bytes:
        body = ("<h1>Thank you!</h1>\n<p>Your reservation request was sent. We will call you when it is ready "
                "for pickup.</p>")
        return self._page("Reservation sent", body)

    def _guide(self, p: Product) -> bytes:
        return (f"{p.name} - care guide\n{self.name}, item {p.item}\n\n{p.description}\n\n"
                f"Cleaning: {_CARE[sum(map(ord, p.name)) % len(_CARE)]}\n"
                "Storage: keep it dry and out of direct sunlight when not in use.\n"
                f"Questions? Call us at {self.phone}.\n").encode()


_CARE = ("wipe with a damp cloth and let it air-dry; no detergents.",
         "rinse with lukewarm water and mild soap, then dry completely before storing.",
         "brush off dirt once dry; spot-clean with a soft sponge.",
         "hand wash only; dry with a soft towel straight away.")


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def _hours(rng: random.Random) -> tuple[tuple[str, str], ...]:
    opens = rng.choice((8, 9, 10))
    closes = rng.choice((17, 18, 19))
    weekday = f"{opens}:00 AM - {closes - 12}:00 PM"
    sat = f"{rng.choice((9, 10))}:00 AM - {rng.choice((14, 15, 16)) - 12}:00 PM"
    sun = rng.choice(("Closed", f"{rng.choice((10, 11))}:00 AM - {rng.choice((15, 16)) - 12}:00 PM"))
    late = rng.choice(DAYS[:5])  # one late evening a week
    return tuple((d, sat if d == "Saturday" else sun if d == "Sunday" else
                  f"{opens}:00 AM - {closes - 12 + 2}:00 PM" if d == late else weekday) for d in DAYS)


def draw_site(rng: random.Random) -> Site:
    """A shop site: the shop, its products (each look-alike pair), prices, item numbers, address and hours."""
    kind = rng.choice(sorted(SHOPS))
    names, city, catalogue = SHOPS[kind]
    name = rng.choice(names)
    prefix = "".join(w[0] for w in slug(name).split("-") if w)[:2].upper()
    products: list[Product] = []
    items: set[str] = set()
    for cat, pairs in catalogue.items():
        for a, b, description in pairs:
            base = rng.randint(25, 320)
            cents = rng.choice(("95", "99", "50", "49"))
            for j, pname in enumerate((a, b)):
                price = f"{base + (j and rng.randint(10, 60))}.{cents}"
                item = f"{prefix}-{rng.randint(10000, 99999)}"
                while item in items:
                    item = f"{prefix}-{rng.randint(10000, 99999)}"
                items.add(item)
                products.append(Product(pname, cat, price, item, description))
    address = f"{rng.randint(100, 2999)} {rng.choice(STREETS)}, {city}"
    phone = f"({rng.randint(201, 989)}) 555-0{rng.randint(100, 199)}"
    return Site(name, kind, rng.randint(8100, 8899), tuple(products), address, phone, _hours(rng))


# --- the Chrome kit of the web families -------------------------------------------------------------------

@dataclass(frozen=True)
class WebProfile(chc.Profile):
    """The Chrome profile and the site the task is about (served next to Chrome)."""

    site: Site | None = None
    history: tuple[dict[str, Any], ...] = ()  # History entries (preparers.ops.chrome_history.build_history), if any


@node("prepare", "prepare", ("profile",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The profile (chrome kit) plus the site's files in the server's folder; launch serves it and opens Chrome."""
    out = dict(chc.prepare.fn(ctx, values))
    profile = values["profile"]
    history = [Asset(HISTORY, build_history(profile.history), app="chrome")] if profile.history else []
    return {"assets": [*out["assets"], *history, *profile.site.assets()], "launch": profile.site.launch()}


def web_profile(profile: chc.Profile, site: Site, history: tuple[dict[str, Any], ...] = ()) -> WebProfile:
    return WebProfile(profile.bookmarks, profile.prefs, profile.nest, site=site, history=history)


#: The kit of the web families: Chrome's, whose prepare also ships and serves the site.
WEB = replace(chc.CHROME, prepare=prepare)
