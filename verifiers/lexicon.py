"""The lexicon: how an instruction says each value of a goal-defining argument, and which values contradict it.

Grounding (verifiers/grounding.py) asks two questions of every goal-defining rubric argument (sort direction,
comparison operator, aggregate, chart type, alignment, rotation direction...): does the instruction express the
value the rubric checks, and does it express a value that contradicts it? A literal match is not enough for
these: "largest to smallest" means `descending=True`, and "a sum of ... using AVERAGE" asks for two things.

A `Domain` maps each value to regular expressions (case-insensitive, matched on word boundaries by the author)
for its phrasings. The phrasings are the ones the families' offline PHRASINGS and word tables use
(workflows/calc_sort_rows.ORDER_WORDS, calc_chart.CHART_WORDS, calc_conditional_format's conditions ...) plus
the common synonyms a model writes. Matching keeps the longest phrase where phrases overlap ("counter-clockwise"
is not also "clockwise", "reverse alphabetical" is not also "alphabetical", "not equal to" not "equal to").
A phrase mapped to the neutral value "" only consumes text ("Insert > Header and Footer" names neither part).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

NEUTRAL = ""

# Paths and URLs name files, not goals: "/home/user/left_over.docx" says nothing about alignment.
_PATHS = re.compile(r"(?:~|/home/)[^\s'\"(),;]*|https?://\S+|chrome://\S+")
# A quoted literal (a header, a title, a label) is data: 'Average Score' does not ask for an average.
# An opening quote follows a non-word character, so apostrophes in "don't" or "Chrome's" open nothing.
_QUOTED = re.compile(r"(?<!\w)'[^'\n]+?'(?!\w)|\"[^\"\n]+\"|“[^”\n]+”|‘[^’\n]+’")


@dataclass(frozen=True)
class Domain:
    """The values of one goal-defining argument kind and their phrasings.

    `contradicts[v]` lists the values an instruction must not also express when the rubric checks `v`
    (default: every other value of the domain). `mask_quotes=False` keeps quoted text for domains whose
    phrasings are quoted UI names (the "Title Only" layout, 'Continue where you left off')."""

    name: str
    phrases: Mapping[str, tuple[str, ...]]
    contradicts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    mask_quotes: bool = True
    mask_paths: bool = True

    def against(self, value: str) -> tuple[str, ...]:
        """The values that contradict `value`."""
        if value in self.contradicts:
            return self.contradicts[value]
        return tuple(v for v in self.phrases if v not in (value, NEUTRAL))

    @cached_property
    def _patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        return [(value, re.compile(p, re.IGNORECASE)) for value, ps in self.phrases.items() for p in ps]

    def expressed(self, text: str) -> dict[str, list[str]]:
        """Value -> the phrases of `text` that express it (longest phrase wins where phrases overlap)."""
        text = prose(text, quotes=self.mask_quotes, paths=self.mask_paths)
        spans = [(m.start(), m.end(), value) for value, pattern in self._patterns
                 for m in pattern.finditer(text) if m.end() > m.start()]
        kept = [s for s in spans
                if not any(o[0] <= s[0] and s[1] <= o[1] and (o[1] - o[0]) > (s[1] - s[0]) for o in spans)]
        found: dict[str, list[str]] = {}
        for start, end, value in sorted(kept):
            if value != NEUTRAL:
                found.setdefault(value, []).append(text[start:end])
        return found


def prose(text: str, *, quotes: bool = True, paths: bool = True) -> str:
    """`text` with paths/URLs and (optionally) quoted literals blanked out, keeping the words around them."""
    if paths:
        text = _PATHS.sub(" ", text)
    if quotes:
        text = _QUOTED.sub(" ", text)
    return text


def _b(*words: str) -> tuple[str, ...]:
    """Phrases as whole-word patterns."""
    return tuple(rf"\b{w}\b" for w in words)


DOMAINS: dict[str, Domain] = {d.name: d for d in (
    Domain("order", {
        "asc": _b("from smallest to largest", "smallest to largest", "lowest to highest", "ascending",
                  "increasing", "A to Z", r"alphabetical(?:ly)?", "oldest to newest", "earliest to latest",
                  "oldest first", "smallest first", "lowest first"),
        "desc": _b("from largest to smallest", "largest to smallest", "highest to lowest", "descending",
                   "decreasing", "Z to A", r"reverse alphabetical(?:ly)?(?: order)?", r"reverse-alphabetical",
                   "newest to oldest", "latest to earliest", "newest first", "most recent first", "largest first",
                   "highest first"),
    }),
    Domain("compare", {
        "greaterThan": _b("greater than", "more than", "larger than", "higher than", "bigger than", "above",
                          r"exceed(?:s|ing)?"),
        "lessThan": _b("less than", "fewer than", "smaller than", "lower than", "below"),
        "greaterThanOrEqual": _b("greater than or equal to", "at least", "no less than", "or more"),
        "lessThanOrEqual": _b("less than or equal to", "at most", "no more than", "or less", "or fewer"),
        "between": _b("between"),
        "notBetween": _b("not between", "outside"),
        "equal": _b("equal to", "equals", "is equal"),
        "notEqual": _b("not equal to", "different from", "other than", "does not equal"),
        "top": _b(r"top \d+", r"top-\d+", r"highest \d+", r"largest \d+", r"\d+ highest", r"\d+ largest"),
        "bottom": _b(r"bottom \d+", r"bottom-\d+", r"lowest \d+", r"smallest \d+", r"\d+ lowest", r"\d+ smallest"),
    }, contradicts={
        "greaterThan": ("lessThan", "lessThanOrEqual", "bottom"),
        "lessThan": ("greaterThan", "greaterThanOrEqual", "top"),
        "greaterThanOrEqual": ("lessThan", "lessThanOrEqual"),
        "lessThanOrEqual": ("greaterThan", "greaterThanOrEqual"),
        "between": ("notBetween",), "notBetween": ("between",),
        "equal": ("notEqual",), "notEqual": ("equal",),
        "top": ("bottom", "lessThan"), "bottom": ("top", "greaterThan"),
    }),
    Domain("aggregate", {
        "SUM": _b("SUM", "sums", r"totals?", r"add(?:s|ing)? up", "summing"),
        "AVERAGE": _b("AVERAGE", "averages", "mean", "arithmetic mean"),
        "MIN": _b("MIN", "minimum", "lowest", "smallest", "smaller"),
        "MAX": _b("MAX", "maximum", "highest", "largest", "larger"),
        "MEDIAN": _b("MEDIAN", "middle value"),
        "COUNT": _b("COUNT", "how many", r"number of (?:data )?(?:rows|entries|numbers|values|cells|records)"),
        "COUNTIF": _b("COUNTIF"),
        "SUMIF": _b("SUMIF"),
        "PRODUCT": _b("PRODUCT", r"multipl(?:y|ied|ying)", "times"),
        "DIFFERENCE": _b("minus", r"subtract(?:ed|ing)?", "difference"),
        "ROUND": _b("ROUND", "rounded", "rounding"),
    }, contradicts={
        "SUM": ("AVERAGE", "MIN", "MAX", "MEDIAN", "PRODUCT", "DIFFERENCE"),
        "AVERAGE": ("SUM", "MIN", "MAX", "MEDIAN", "PRODUCT", "DIFFERENCE"),
        "MIN": ("MAX", "SUM", "AVERAGE", "MEDIAN"),
        "MAX": ("MIN", "SUM", "AVERAGE", "MEDIAN"),
        "MEDIAN": ("SUM", "AVERAGE", "MIN", "MAX"),
        "COUNT": ("SUM", "AVERAGE", "MIN", "MAX", "MEDIAN"),
        "COUNTIF": ("SUM", "AVERAGE", "MIN", "MAX", "MEDIAN", "SUMIF"),
        "SUMIF": ("AVERAGE", "MIN", "MAX", "MEDIAN", "COUNTIF"),
        "PRODUCT": ("SUM", "AVERAGE", "DIFFERENCE"),
        "DIFFERENCE": ("SUM", "AVERAGE", "PRODUCT"),
        "ROUND": (),
    }),
    Domain("chart", {
        "bar": _b("bar chart", "bar graph", r"horizontal bars?", "horizontal bar chart"),
        "column": _b("column chart", "column graph", r"vertical bars?", "vertical bar chart"),
        "line": _b("line chart", "line graph"),
        "pie": _b("pie chart", "pie"),
        "area": _b("area chart", "area graph"),
        "scatter": _b("scatter chart", "scatter plot", "XY chart"),
    }),
    Domain("align", {
        "left": _b(r"left[- ]aligned", r"align(?:ed)? (?:to the )?left", "flush left", "left alignment",
                   r"left[- ]justified", r"aligned? left"),
        "center": _b(r"cent(?:er|re)(?:e?d)?", r"align(?:ed)? (?:to the )?cent(?:er|re)", "centred"),
        "right": _b(r"right[- ]aligned", r"align(?:ed)? (?:to the )?right", "flush right", "right alignment",
                    r"right[- ]justified", r"aligned? right"),
        "justify": _b(r"justif(?:y|ied|ication)", "flush with both margins", "block alignment"),
    }),
    Domain("part", {
        "header": _b(r"headers?"),
        "footer": _b(r"footers?"),
        NEUTRAL: _b(r"headers? (?:and|or|&) footers?", r"footers? (?:and|or|&) headers?"),
    }),
    Domain("spacing", {
        "multiple": _b("single", "double", "one and a half", r"\d+(?:\.\d+)? lines?", "proportional"),
        "atLeast": _b("at least"),
        "exact": _b(r"exact(?:ly)?", "fixed"),
    }, contradicts={"atLeast": ("exact",), "exact": ("atLeast",), "multiple": ()}),
    Domain("list", {
        "bullet": _b(r"bullet(?:ed|s)?", "unordered"),
        "number": _b("numbered", "numbering", r"1, 2, 3", "ordered list"),
    }),
    Domain("orientation", {"portrait": _b("portrait"), "landscape": _b("landscape")}),
    Domain("unit", {
        "cm": _b("cm", r"centimet(?:er|re)s?"),
        "in": _b(r"inch(?:es)?", r"\d+(?:\.\d+)? ?in"),
        "mm": _b("mm", r"millimet(?:er|re)s?"),
    }),
    Domain("archive", {
        "zip": _b("zip", r"\.zip"),
        "tar.gz": (r"\bgzip", r"\.tar\.gz\b", r"\.tgz\b", r"\bgzipped\b"),
        "tar.bz2": (r"\bbzip2?", r"\.tar\.bz2\b", r"\bbz2\b"),
    }, mask_paths=False),
    Domain("brightness", {
        "brighter": _b("brighter", r"brighten(?:ed)?", "lighter", "lighten", "increase the brightness"),
        "darker": _b("darker", r"darken(?:ed)?", "dimmer", "reduce the brightness", "decrease the brightness",
                     "lower the brightness"),
    }),
    Domain("rotation", {
        "clockwise": _b("clockwise", "to the right"),
        "counter-clockwise": _b(r"counter-?clockwise", r"anti-?clockwise", "to the left"),
    }),
    Domain("axis", {
        "horizontal": _b(r"horizontal(?:ly)?", "left and right", "mirror image"),
        "vertical": _b(r"vertical(?:ly)?", "top and bottom", "upside down"),
    }),
    Domain("layout", {
        "title_only": _b("title only", "title-only"),
        "title_content": _b(r"title,? (?:and )?content", r"title \+ content"),
        "two_content": _b(r"title,? and 2 content", r"title,? 2 content", "two content", r"title and two content"),
        "title_slide": _b("title slide"),
        "blank": _b("blank"),
    }, mask_quotes=False),
    Domain("corner", {
        "top_left": _b(r"top[- ]left", r"upper[- ]left"),
        "top_right": _b(r"top[- ]right", r"upper[- ]right"),
        "bottom_left": _b(r"bottom[- ]left", r"lower[- ]left"),
        "bottom_right": _b(r"bottom[- ]right", r"lower[- ]right"),
    }),
    Domain("filter_action", {
        "Move to folder": _b(r"mov(?:e|es|ed|ing)"),
        "Copy to folder": _b(r"cop(?:y|ies|ied|ying)"),
        "Mark read": _b("as read", r"mark(?:s|ed)? read"),
        "Mark flagged": _b(r"flag(?:s|ged)?", r"stars?", "starred"),
        "Delete": _b(r"delet(?:e|es|ed|ing)"),
        "AddTag": _b(r"tag(?:s|ged)?"),  # tb.filter_action
        "Forward": _b(r"forward(?:s|ed|ing)?"),
        NEUTRAL: _b(r"not (?:move|copy)", r"(?:do not|don't) (?:move|copy)"),
    }, contradicts={"Move to folder": ("Copy to folder", "Delete"), "Copy to folder": ("Move to folder", "Delete"),
                    "Mark read": (), "Mark flagged": (), "Delete": ("Move to folder", "Copy to folder"),
                    "AddTag": (), "Forward": ()}),
    Domain("mail_field", {
        "subject": _b("subject", "subject line"),
        "from": _b("sender", "sent by", r"from [\w.+-]+@[\w.-]+", r"\(from\)", "from address"),
        "before": _b("before", "older than", "earlier than"),
        "after": _b("after", "newer than", "later than"),
    }, contradicts={"subject": ("from",), "from": ("subject",), "before": ("after",), "after": ("before",)}),
    Domain("match", {
        "contains": _b(r"contains?", "containing"),
        "is": _b("is exactly", r"equals?"),
        "begins with": _b(r"begins? with", r"starts? with"),
        "ends with": _b(r"ends? with"),
        "doesn't contain": _b(r"does(?:n't| not) contain"),
    }, contradicts={"contains": ("doesn't contain",), "doesn't contain": ("contains",)}),
    Domain("read", {
        "read": _b("as read", r"mark(?:s|ed)? (?:\w+ ){0,4}read", "read status"),
        "unread": _b("unread", "as not read"),
        NEUTRAL: (r"\bother (?:messages|mail|ones)\b[^.;]*\bunread\b",),
    }),
    Domain("flag", {
        "flagged": _b(r"flag(?:s|ged)?", r"stars?", "starred"),
        "unflagged": _b(r"unflag(?:ged)?", r"unstar(?:red)?", r"remove the (?:flag|star)"),
    }),
    Domain("startup", {
        "continue": _b(r"continue where (?:you|I|it) left off", r"(?:last|previous) session", r"restor\w* the tabs"),
        "new_tab": _b("new tab page"),
        NEUTRAL: _b(r"instead of the new tab page"),
    }, contradicts={"continue": ("new_tab",), "new_tab": ("continue",), "urls": ("continue", "new_tab")},
        mask_quotes=False),
    Domain("home", {
        "new_tab": _b("new tab page", "new tab"),
        "shown": _b(r"home button (?:is )?(?:shown|visible)", r"show(?:s|ing)? the home button"),
        "hidden": _b(r"hide the home button", r"home button (?:is )?hidden"),
    }, contradicts={"new_tab": (), "shown": ("hidden",), "hidden": ("shown",)}),
    Domain("number_format", {
        "currency": _b("currency", r"dollars?", "euros?", r"pounds? sterling", r"US dollar"),
        "percent": _b(r"percent(?:age)?", "per cent"),
        "date": _b("date", "YYYY-MM-DD", r"DD[./-]MM[./-]YYYY", r"MM[./-]DD[./-]YYYY"),
        "number": _b("number format", "decimal places", "thousands separator"),
    }, contradicts={"currency": ("percent", "date"), "percent": ("currency", "date"),
                    "date": ("currency", "percent"), "number": ("currency", "percent", "date")}),
    Domain("validation", {
        "list": _b("list", "drop-down", "dropdown"),
        "whole": _b(r"whole numbers?", r"integers?"),
        "decimal": _b(r"decimal numbers?", r"decimals?"),
    }, contradicts={"list": ("whole", "decimal"), "whole": ("decimal", "list"), "decimal": ("whole", "list")}),
    Domain("emphasis", {
        "bold": _b("bold", "boldface"),
        "italic": _b(r"italics?", "italicised", "italicized"),
        "underline": _b(r"underline(?:d)?", "underlined"),
    }, contradicts={"bold": (), "italic": (), "underline": ()}),
    Domain("slides", {
        "deleted": _b(r"delet(?:e|es|ed|ing)", r"remov(?:e|es|ed|ing)", r"get(?:s|ting)? rid of", r"drop(?:s|ped)?",
                     "take out"),
        "duplicated": _b(r"duplicat(?:e|es|ed|ing)", r"cop(?:y|ies)", "second copy"),
        "moved": _b(r"mov(?:e|es|ed|ing)", r"reorder(?:s|ed|ing)?", r"drag(?:s|ged|ging)?"),
        NEUTRAL: _b(r"(?:do not|don't|not) (?:copy|delete|remove|duplicate) it", r"(?:do not|don't|not) copy",
                    r"(?:do not|don't|not) duplicate"),
    }, contradicts={"moved": ("duplicated", "deleted"), "duplicated": ("deleted",), "deleted": ("duplicated",)}),
    Domain("removal", {  # a clean-up: files the rubric's listing no longer holds were asked to go
        "deleted": _b(r"delet(?:e|es|ed|ing)", r"remov(?:e|es|ed|ing)", r"get(?:s|ting)? rid of", "clean out",
                      r"eras(?:e|es|ed|ing)", r"trash(?:es|ed)?", r"throw(?:s|ing)? away", "purge"),
        NEUTRAL: _b(r"(?:do not|don't|not|never) (?:delete|remove|erase|trash)", r"not to (?:delete|remove)"),
    }),
    Domain("case", {
        "match": _b("exactly as written", "match case", r"case[- ]sensitive", "same capitalization",
                    "same capitalisation", "exact case"),
        "any": _b("any capitalization", "any capitalisation", r"case[- ]insensitive",
                  r"ignor(?:e|es|ing) (?:the )?case", r"regardless of (?:case|capitali[sz]ation)", "any case"),
    }),
    Domain("page_number", {"page_number": _b(r"page numbers?", "page-number", "page count")}),
    Domain("unbind", {"removed": _b(r"remov(?:e|es|ed|ing)", r"delet(?:e|es|ed|ing)", "disable", "unbind",
                                    "no longer runs", "no longer")}),
    Domain("side", {"width": _b("width", "wide"), "height": _b("height", "high", "tall")}),
    Domain("executable", {"executable": _b("executable", r"\+x", "run it", "runnable", "execute permission")}),
    Domain("fill", {  # what the empty cells of a column get (calc.fill_blanks)
        "average": _b(r"averages?", "mean", "arithmetic mean"),
        "previous": _b(r"previous (?:value|entry|number|figure)", r"(?:value|entry) (?:directly )?above",
                       r"(?:last|nearest) (?:filled )?value above", r"carry (?:the value )?(?:forward|down)",
                       "forward fill", "fill down"),
        "zero": _b("zero", "zeros", "zeroes", "a 0"),
    }),
    Domain("effect", {  # a character effect on a phrase (writer.char_effect)
        "strike": _b(r"strike ?-?through", "strikeout", r"struck (?:out|through)", r"cross(?:ed)? (?:out|through)"),
        "highlight": _b(r"highlight(?:s|ed|ing|er)?"),
        "color": _b(r"(?:font|text|letter) colou?rs?", r"colou?r (?:the )?(?:words|text|phrase|paragraph)"),
    }, contradicts={"strike": (), "highlight": (), "color": ()}),
    Domain("colour", {  # the colour of a highlight or of the letters (writer.char_effect)
        "red": _b("red"), "yellow": _b("yellow"), "green": _b("green"), "blue": _b("blue"),
    }),
    Domain("letter_case", {  # Writer's Format > Text cases (writer.change_case)
        "upper": _b(r"upper ?-?case", "all caps", r"all capitals?", "block capitals", r"capital letters only"),
        "lower": _b(r"lower ?-?case", r"all small letters"),
        "title": _b(r"capitali[sz]e every word", "title case", r"every word (?:starts|begins) with a capital"),
        "sentence": _b("sentence case", r"only the first letter (?:of each sentence )?(?:as a |in )?capitals?"),
    }, contradicts={"upper": ("lower", "title", "sentence"), "lower": ("upper",), "title": ("upper", "sentence"),
                    "sentence": ("upper", "title")}),
    Domain("tone", {  # more or less of a picture's saturation or contrast (gimp.saturation, gimp.contrast)
        "more": _b("more vivid", "more saturated", r"more colou?rful", r"(?:increase|raise|boost) (?:the |its )?"
                   r"(?:colou?r )?(?:saturation|contrast)", "more contrast", "punchier", "more contrasty",
                   r"stronger (?:colou?rs|contrast)"),
        "less": _b("less vivid", "less saturated", "more muted", r"(?:reduce|lower|decrease|tone down) (?:the |its )?"
                   r"(?:colou?r )?(?:saturation|contrast)", "less contrast", "softer", "flatter",
                   r"weaker (?:colou?rs|contrast)", r"less colou?rful"),
    }),
    Domain("script", {  # characters set below or above the line (writer.sub_superscript)
        "sub": _b(r"subscript(?:s|ed)?", r"sub-script(?:s|ed)?"),
        "super": _b(r"superscript(?:s|ed)?", r"super-script(?:s|ed)?"),
    }, contradicts={"sub": ("super",), "super": ("sub",)}),
    Domain("privacy", {  # a privacy or security switch of Chrome (chrome.privacy_setting)
        "dnt_on": _b(r"(?:turn|switch) on (?:sending )?(?:a |the )?Do Not Track",
                     r"enable (?:sending )?(?:a |the )?Do Not Track",
                     r"send(?:s|ing)? (?:a |the )?Do Not Track", r"Do Not Track (?:request )?(?:turned |switched )?on"),
        "dnt_off": _b(r"(?:turn|switch) off (?:sending )?(?:a |the )?Do Not Track",
                      r"disable (?:sending )?(?:a |the )?Do Not Track",
                      r"stop sending (?:a |the )?Do Not Track", r"Do Not Track (?:request )?(?:turned |switched )?off",
                      r"no longer send (?:a |the )?Do Not Track"),
        "sb_enhanced": _b("enhanced protection", "enhanced safe browsing"),
        "sb_standard": _b("standard protection", "standard safe browsing"),
        "sb_off": _b("no protection", r"turn (?:off safe browsing|safe browsing off)", "disable safe browsing",
                     r"safe browsing (?:turned |switched )?off"),
        "tpc_block": _b(r"block(?:s|ing)? (?:all )?third-party cookies", r"third-party cookies (?:are )?blocked"),
        "tpc_allow": _b(r"allow(?:s|ing)? third-party cookies", r"unblock third-party cookies",
                        r"stop blocking third-party cookies", r"third-party cookies (?:are )?allowed"),
        "exit_clear": _b(r"clear(?:s|ing)? (?:my )?cookies and site data (?:whenever|when|every time) (?:I|you) close",
                         r"(?:clear|delete)s? (?:my )?cookies (?:on|at) exit",
                         r"cookies and site data (?:get |are )?(?:cleared|deleted) (?:whenever|when|every time) "
                         r"(?:I|you) close"),
        "exit_keep": _b(r"stop (?:Chrome )?(?:from )?clearing (?:my )?cookies and site data "
                        r"(?:whenever|when|every time) (?:I|you) close",
                        r"keep (?:my )?cookies and site data (?:after|when) (?:I|you) close"),
    }, contradicts={"dnt_on": ("dnt_off",), "dnt_off": ("dnt_on",), "sb_enhanced": ("sb_standard", "sb_off"),
                    "sb_standard": ("sb_enhanced", "sb_off"), "sb_off": ("sb_enhanced", "sb_standard"),
                    "tpc_block": ("tpc_allow",), "tpc_allow": ("tpc_block",), "exit_clear": ("exit_keep",),
                    "exit_keep": ("exit_clear",)}),
    Domain("scope", {  # a change made on every slide of a deck, not one (impress.background, impress.transition)
        "all": _b(r"(?:every|each) slide", r"all (?:the |of the )?slides", r"(?:whole|entire) (?:deck|presentation)",
                  r"all (?:the )?pages", "every page", "throughout the deck", "throughout the presentation"),
    }, contradicts={"all": ()}),
    Domain("delimiter", {  # the field delimiter of a text export (calc.export_csv)
        "comma": _b(r"commas?", "comma-separated", "comma-delimited"),
        "semicolon": _b(r"semicolons?", "semicolon-separated", "semicolon-delimited"),
        "tab": _b(r"tab characters?", r"tabs", "tab-separated", "tab-delimited", "TSV"),
    }),
    Domain("separator", {  # what splits the cells of a table typed as text (writer.text_to_table)
        "tab": _b(r"tabs?", r"tab[- ]separated", r"tab characters?", r"tab stops?"),
        "semicolon": _b(r"semicolons?", r"semicolon[- ]separated"),
    }, contradicts={"tab": ("semicolon",), "semicolon": ("tab",)}),
    Domain("font_setting", {  # which of Chrome's Customize fonts settings (chrome.font_setting)
        "size": _b(r"(?:default |page |overall )?font size", "text size"),
        "minimum": _b("minimum font size", "smallest font size"),
        "standard": _b("standard font"),
        "serif": _b("serif font"),
        "sans": _b(r"sans[- ]serif font"),
        "fixed": _b(r"fixed[- ]width font", "monospace font"),
    }),
    Domain("transition", {  # a slide transition effect by its Impress name (impress.transition)
        "fade": _b(r"fades?", r"fade (?:in|smoothly)"), "push": _b(r"push(?:es)?"), "wipe": _b(r"wipes?"),
        "split": _b(r"splits?"), "dissolve": _b(r"dissolves?"), "uncover": _b(r"uncovers?"),
    }),
    Domain("indent", {  # which indent of a paragraph (writer.paragraph_indent)
        "first_line": _b(r"first[- ]line indents?", r"indent(?:s|ed)? (?:the|its|their) first lines?",
                         r"first lines? indented"),
        "left": _b(r"left indents?", r"indent(?:s|ed)? from the left", r"before[- ]text indents?"),
        "hanging": _b(r"hanging indents?", r"hanging"),
    }, contradicts={"first_line": ("hanging",), "hanging": ("first_line",), "left": ()}),
    Domain("corner_region", {  # where on a slide a text box goes (impress.text_box)
        "bottom": _b(r"(?:at|along|near) the bottom", "bottom edge", r"bottom of the slide", "lower part"),
        "top_right": _b(r"top[- ]right", r"upper[- ]right"),
    }),
    Domain("lo_option", {  # which LibreOffice option of its user profile (os.lo_options)
        "autosave": _b(r"auto-?recovery", r"auto-?save", "autosave"),
        "presenter": _b(r"presenter (?:console|screen|view)"),
        "user_name": _b("user data", r"(?:my|your|the user's) name", r"(?:first|given) name", "author name"),
        "default_font": _b(r"default (?:text |paragraph )?font", "basic font", "standard font"),
    }),
    Domain("para_space", {  # the space above or below a paragraph (writer.paragraph_spacing)
        "before": _b(r"space (?:before|above)", r"spacing (?:before|above)", r"above (?:the |each |every )?paragraphs?",
                     r"before (?:the |each |every )?paragraphs?"),
        "after": _b(r"space (?:after|below)", r"spacing (?:after|below)", r"below (?:the |each |every )?paragraphs?",
                    r"after (?:the |each |every )?paragraphs?"),
    }, contradicts={"before": ("after",), "after": ("before",)}),
    Domain("gimp_option", {  # which GIMP preference of its gimprc (os.gimp_prefs)
        "undo_levels": _b(r"undo levels?", r"undo steps?", r"levels of undo"),
        "image_size": _b(r"default image size", r"size (?:of|for) new images"),
        "theme": _b(r"(?:interface |ui )?theme"),
        "interpolation": _b(r"interpolation(?: method)?"),
    }),
    Domain("visibility", {  # a slide skipped in the slide show or shown again (impress.hide_slide)
        "hidden": _b(r"hide", r"hides", r"skip(?:ped)? (?:it )?(?:in|during) the (?:slide ?)?show", r"Hide Slide"),
        "shown": _b(r"unhide", r"show (?:it|the slide) again", r"visible again", r"Show Slide",
                    r"no longer hidden", r"back (?:in|into) the (?:slide ?)?show"),
    }, contradicts={"hidden": ("shown",), "shown": ("hidden",)}),
    Domain("tab_align", {  # the alignment of a tab stop (writer.tab_stops)
        "left": _b(r"left(?:-aligned)? tab(?: stop)?s?", r"left tab"),
        "right": _b(r"right(?:-aligned)? tab(?: stop)?s?", r"right tab"),
        "center": _b(r"cent(?:er(?:ed)?|red?)(?:-aligned)? tab(?: stop)?s?"),
        "decimal": _b(r"decimal tab(?: stop)?s?"),
    }, contradicts={"left": ("right", "center", "decimal"), "right": ("left", "center", "decimal"),
                    "center": ("left", "right", "decimal"), "decimal": ("left", "right", "center")}),
    Domain("column_line", {  # a separator line between page columns (writer.page_columns)
        "line": _b(r"separator lines?", r"(?:vertical )?lines? between (?:the )?columns", r"dividing lines?"),
    }, contradicts={"line": ()}),
    Domain("flag_setting", {  # a chrome://flags experiment's option (chrome.flag)
        "enabled": _b(r"enabled?", r"turn(?:ed)? on", r"switch(?:ed)? on"),
        "disabled": _b(r"disabled?", r"turn(?:ed)? off", r"switch(?:ed)? off"),
        "default": _b(r"(?:back )?to (?:its |the )?default", r"reset", "Default"),
    }),
    Domain("revision", {  # what becomes of tracked changes (writer.track_changes)
        "accept": _b(r"accept(?:s|ed|ing)?(?: all)?"),
        "reject": _b(r"reject(?:s|ed|ing)?(?: all)?", r"undo (?:all )?(?:the )?(?:tracked )?changes"),
    }, contradicts={"accept": ("reject",), "reject": ("accept",)}),
    Domain("cover", {  # whether the title slide gets a deck-wide footer or slide number too (impress.footer, ...)
        "with": _b(r"(?:the )?(?:title|cover|first) slide (?:too|included|as well)",
                   r"including the (?:title|cover|first) slide", r"(?:the )?(?:title|cover|first) slide also"),
        "without": _b(r"(?:except|but|apart from|other than|excluding|not on|skip(?:ping)?) (?:for )?the "
                      r"(?:title|cover|first) slide", r"(?:the )?(?:title|cover|first) slide (?:stays|should stay|"
                      r"is left|keeps?) (?:without|out|clean|free|bare)",
                      r"leave (?:out )?the (?:title|cover|first) slide(?: out)?(?: without)?"),
    }, contradicts={"with": ("without",), "without": ("with",)}),
    Domain("canvas_sides", {  # where a picture's canvas grows (gimp.canvas_border)
        "all": _b(r"(?:on )?(?:every|each) side", r"all (?:four )?sides", "all around", r"(?:on )?all four edges"),
        "bottom": _b(r"(?:at|along|to) the bottom(?: edge)?", r"below (?:it|the picture|the image)", "underneath"),
    }),
    Domain("occurrence", {  # which mentions of a phrase an edit covers (writer.hyperlink)
        "all": _b(r"(?:every|each) (?:mention|occurrence|place|time)", r"all (?:the )?(?:mentions|occurrences|places)",
                  "wherever", "everywhere"),
        "first": _b(r"(?:the )?first (?:mention|occurrence|time|place)", r"only (?:the )?first"),
    }, contradicts={"all": ("first",), "first": ("all",)}),
    Domain("recording", {  # whether a document records its edits as tracked changes (writer.record_changes)
        "on": _b(r"turn(?:s|ed)? on", r"switch(?:es|ed)? on", r"start(?:s|ed)? recording", "enable"),
        "off": _b(r"turn(?:s|ed)? off", r"switch(?:es|ed)? off", r"stop(?:s|ped)? recording", "disable",
                  "no longer record", "no longer tracked", "stop tracking"),
    }, contradicts={"on": ("off",), "off": ("on",)}),
    Domain("vlc_option", {  # which VLC preference of its vlcrc, by option name (vlc.preferences)
        "input-record-path": _b(r"record(?:ing)?s? (?:folder|directory)", r"recordings? go", r"record directory",
                                r"(?:saves|puts|stores|keeps) (?:its |my |the )?recordings"),
        "qt-max-volume": _b(r"max(?:imum)? volume", r"volume (?:slider )?(?:limit|cap|maximum)"),
        "one-instance": _b(r"(?:only )?one (?:running )?instance", r"single instance", r"one instance only"),
        "qt-minimal-view": _b(r"minimal (?:view|interface|mode)", r"without (?:the )?menus"),
        "loop": _b(r"repeat all", r"loop (?:the |my )?(?:whole )?playlist", r"repeat (?:the |my )?(?:whole )?playlist",
                   r"loop all"),
        "one-instance-when-started-from-file": _b(r"(?:only )?one instance when (?:it is )?started from (?:the )?file "
                                                  r"manager", r"(?:started|opened) from (?:the )?file manager"),
        "qt-bgcone": _b(r"(?:background |traffic |VLC )?cone(?: icon| art| picture)?"),
    }),
)}
