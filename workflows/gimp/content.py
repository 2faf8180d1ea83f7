"""Offline generator for the GIMP "content" LLM node: what a picture shows and what its file is called.

`generate_picture(rng, plan)` returns JSON of the shape `PICTURE_SCHEMA` describes — a subject ("the Chicago
skyline at night"), a file stem as people and cameras name files ("IMG_20230714_183202", "q3_revenue_chart"),
a palette that suits the subject, the object of a product shot, and a layout seed for `preparers.image.render`.
Each kind of picture has its own pool of subjects; all randomness comes from the caller's rng.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from preparers.image import KINDS, PALETTE_NAMES

#: kind -> (subject, descriptive stems, palettes that suit it)
SUBJECTS: dict[str, tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]] = {
    "landscape": (
        ("the Dolomites at sunset", ("dolomites_sunset", "dolomites_evening"), ("sunset",)),
        ("a misty morning in the Scottish Highlands", ("highlands_mist", "glencoe_morning"), ("overcast",)),
        ("autumn hills near Asheville", ("asheville_fall", "blue_ridge_autumn"), ("autumn",)),
        ("a spring hike in the Bernese Alps", ("alps_hike", "bernese_oberland_trail"), ("morning",)),
        ("Yosemite Valley at dusk", ("yosemite_dusk", "yosemite_valley"), ("sunset", "pastel")),
        ("the Lake District on a grey day", ("lake_district", "windermere_walk"), ("overcast",)),
        ("a campsite under the stars", ("campsite_night", "stargazing_camp"), ("night",)),
        ("vineyards near Montalcino", ("tuscany_vineyards", "montalcino_hills"), ("autumn", "morning")),
        ("the Torres del Paine viewpoint", ("patagonia_viewpoint", "torres_del_paine"), ("morning", "overcast")),
        ("a foggy pine forest in Oregon", ("oregon_forest", "forest_fog"), ("overcast", "pastel")),
    ),
    "cityscape": (
        ("the Chicago skyline at night", ("chicago_skyline", "chicago_night"), ("night",)),
        ("downtown Seattle at dusk", ("seattle_dusk", "seattle_downtown"), ("sunset", "pastel")),
        ("Lisbon rooftops in the evening", ("lisbon_rooftops", "lisboa_evening"), ("sunset", "autumn")),
        ("the Frankfurt banking district", ("frankfurt_skyline", "mainhattan"), ("overcast", "corporate")),
        ("Marina Bay in Singapore at night", ("marina_bay_night", "singapore_skyline"), ("night",)),
        ("a rainy evening in Manchester", ("manchester_rain", "deansgate_evening"), ("overcast",)),
        ("the Toronto waterfront in the morning", ("toronto_waterfront", "toronto_morning"), ("morning",)),
        ("Rotterdam's harbour district", ("rotterdam_harbour", "kop_van_zuid"), ("corporate", "overcast")),
    ),
    "beach": (
        ("Bondi Beach in the afternoon", ("bondi_beach", "bondi_afternoon"), ("tropical",)),
        ("a sailing trip off Mallorca", ("mallorca_sailing", "sailing_trip"), ("tropical", "morning")),
        ("the Algarve coast at sunset", ("algarve_sunset", "praia_da_marinha"), ("sunset",)),
        ("a cloudy day at Brighton beach", ("brighton_beach", "brighton_pier_day"), ("overcast",)),
        ("snorkelling at Kaanapali, Maui", ("maui_snorkel", "kaanapali_beach"), ("tropical",)),
        ("the dunes at Cape Cod", ("cape_cod_dunes", "provincetown_beach"), ("morning", "pastel")),
        ("a family day at Scheveningen", ("scheveningen", "beach_day_family"), ("morning", "overcast")),
    ),
    "product": (
        ("the new stoneware travel mug", ("travel_mug_studio", "mug_product_shot"), ("corporate", "pastel")),
        ("a cold-pressed olive oil bottle", ("olive_oil_bottle", "evoo_500ml"), ("autumn", "morning")),
        ("the enamel camping mug", ("camping_mug", "enamel_mug_green"), ("morning", "overcast")),
        ("a bottle of small-batch hot sauce", ("hot_sauce_bottle", "chili_sauce_shot"), ("sunset", "autumn")),
        ("the ceramic espresso cup", ("espresso_cup", "cup_catalog_2024"), ("pastel", "corporate")),
        ("a glass bottle of cold brew", ("cold_brew_bottle", "coldbrew_product"), ("tropical", "corporate")),
    ),
    "diagram": (
        ("the CI/CD pipeline overview", ("cicd_pipeline", "build_pipeline_v2"), ("corporate",)),
        ("the customer onboarding flow", ("onboarding_flow", "customer_journey"), ("pastel", "corporate")),
        ("the network layout of the Berlin office", ("berlin_office_network", "network_topology"),
         ("corporate", "morning")),
        ("the order fulfilment process", ("order_fulfilment", "fulfilment_process"), ("autumn", "corporate")),
        ("the data warehouse ETL flow", ("etl_flow", "dwh_architecture"), ("corporate", "tropical")),
        ("the incident escalation process", ("incident_escalation", "oncall_flow"), ("sunset", "corporate")),
        ("the hiring workflow for new engineers", ("hiring_workflow", "recruiting_process"), ("pastel",)),
    ),
    "chart": (
        ("quarterly revenue by region", ("q3_revenue_chart", "revenue_by_region"), ("corporate",)),
        ("monthly website visits", ("web_visits_monthly", "traffic_2024"), ("tropical", "corporate")),
        ("support tickets per team", ("tickets_per_team", "support_volume"), ("pastel", "autumn")),
        ("energy use per building", ("energy_use_chart", "kwh_by_building"), ("morning", "overcast")),
        ("survey results by age group", ("survey_results", "survey_age_groups"), ("pastel", "sunset")),
        ("donations per campaign", ("donations_chart", "campaign_results"), ("autumn", "corporate")),
    ),
    "document": (
        ("a scanned supplier invoice", ("scan_invoice_0412", "invoice_scan"), ("corporate", "overcast")),
        ("a signed page of the lease agreement", ("lease_signed_p3", "lease_scan"), ("morning", "overcast")),
        ("a scanned expense receipt", ("receipt_scan", "expense_receipt_0923"), ("autumn", "corporate")),
        ("the minutes of the board meeting", ("board_minutes_scan", "minutes_march"), ("corporate",)),
        ("a delivery note from the warehouse", ("delivery_note_scan", "lieferschein"), ("overcast", "autumn")),
        ("a signed consent form", ("consent_form_signed", "consent_scan"), ("pastel", "morning")),
    ),
    "logo": (
        ("the bakery's logo", ("bakery_logo", "logo_crumb_co"), ("autumn", "sunset")),
        ("the hiking club badge", ("hiking_club_badge", "club_logo"), ("morning", "overcast")),
        ("the app logo of the startup", ("app_logo", "logo_final_v3"), ("corporate", "tropical")),
        ("the community garden emblem", ("garden_emblem", "community_garden_logo"), ("morning", "pastel")),
        ("the chess club crest", ("chess_club_crest", "crest_logo"), ("night", "corporate")),
        ("the food truck logo", ("food_truck_logo", "tacos_logo"), ("sunset", "tropical")),
    ),
}
_CAMERA_KINDS = ("landscape", "cityscape", "beach")

PICTURE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "What one picture shows",
    "type": "object",
    "additionalProperties": False,
    "required": ["subject", "file_stem", "palette", "object", "layout_seed"],
    "properties": {
        "subject": {"type": "string", "minLength": 5, "maxLength": 80, "pattern": "^[^\"{}]+$"},
        "file_stem": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]{2,40}$"},
        "palette": {"enum": list(PALETTE_NAMES)},
        "object": {"enum": ["", "mug", "bottle"]},
        "layout_seed": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
    },
}


def _camera_stem(rng: random.Random) -> str:
    """A file name as a phone or camera writes it."""
    y, mo, d = rng.randint(2019, 2025), rng.randint(1, 12), rng.randint(1, 28)
    h, mi, s = rng.randint(6, 21), rng.randint(0, 59), rng.randint(0, 59)
    stamp = f"{y}{mo:02d}{d:02d}_{h:02d}{mi:02d}{s:02d}"
    return rng.choice((f"IMG_{stamp}", f"PXL_{stamp}", f"DSC_{rng.randint(1000, 9999)}",
                       f"DSCF{rng.randint(1000, 9999)}"))


def generate_picture(rng: random.Random, plan: Mapping[str, Any]) -> dict[str, Any]:
    """A picture description for `plan["kind"]` (one of `preparers.image.KINDS`), in one of `plan["palettes"]`."""
    kind = plan["kind"]
    if kind not in KINDS:
        raise ValueError(f"{kind=}, but must be one of {list(KINDS)}")
    subject, stems, palettes = rng.choice(SUBJECTS[kind])
    stem = _camera_stem(rng) if kind in _CAMERA_KINDS and rng.random() < 0.4 else rng.choice(stems)
    if rng.random() < 0.3 and not stem[-1].isdigit():
        stem += rng.choice(("_final", "_v2", "_edit", f"_{rng.randint(2021, 2025)}", "_orig"))
    obj = ""
    if kind == "product":
        obj = "mug" if any(w in subject for w in ("mug", "cup")) else "bottle"
    allowed = plan.get("palettes") or PALETTE_NAMES
    suits = [p for p in palettes if p in allowed]
    return {"subject": subject, "file_stem": stem, "palette": rng.choice(suits or allowed), "object": obj,
            "layout_seed": rng.randrange(2**31)}
