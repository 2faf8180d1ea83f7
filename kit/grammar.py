"""English agreement for generated text: one helper for "a"/"an" and for singular/plural counts.

Templates fill slots with values drawn at generation time ("Please add a {chart}" with chart = "area chart";
"{n} rows" with n = 1), so agreement has to be decided per value, not per template. Families phrase with these
functions, and the `content` verifier stage (verifiers/gate/content.py) uses the same rules to find text that gets
it wrong, so what a generator writes and what the gate accepts cannot drift apart.

The rules follow the sound, not the letter: "an hour", "a user", "a one-off", "an SQL query", "an 8-bit image".
They are a small, deterministic approximation of English; a word they misjudge goes into one of the tables below.
"""

from __future__ import annotations

import re

#: Words that start with a vowel letter but a consonant sound ("a user", "a one-page summary").
_VOWEL_LETTER_CONSONANT_SOUND = re.compile(
    r"(?:uni(?!nt|mp|nf|nd|ns|nv|nh|nc|nit)|use|usu|usa|ure|uro|uti|uto|uku|ubi|eu|ewe|one\b|one-|once|ouija)",
    re.IGNORECASE)
#: Words that start with a consonant letter but a vowel sound ("an hour", "an honest answer").
_SILENT_H = re.compile(r"(?:hour|honest|honou?r|heir)", re.IGNORECASE)
#: Letters whose spoken name starts with a vowel sound: "an SQL", "an HTML page", "an MP3", "an XLSX file".
_VOWEL_NAMED_LETTERS = frozenset("AEFHILMNORSX")
#: Lower-case file formats read letter by letter ("an svg file", "an xlsx file", "a csv file").
_SPELLED_FORMATS = frozenset({"csv", "docx", "gz", "html", "json", "md", "mp3", "mp4", "ods", "odp", "odt", "pdf",
                              "png", "pptx", "rtf", "sql", "svg", "tsv", "txt", "xls", "xlsx", "xml", "bmp"})
#: Upper-case words read as words, not letter by letter ("a NASA report", "an AVERAGE formula", "a SUM formula").
_ACRONYM_WORDS = frozenset({"AVERAGE", "AVERAGEIF", "COUNT", "COUNTIF", "MAX", "MEDIAN", "MIN", "MODE", "SUM",
                            "SUMIF", "PRODUCT", "ROUND", "NASA", "JPEG", "GIF", "UNICEF", "OPEC", "NATO", "ASCII",
                            "UNESCO", "IF", "AND", "OR", "NOT", "VLOOKUP", "INDEX", "MATCH", "TODAY", "NOW"})

_IRREGULAR = {"person": "people", "child": "children", "man": "men", "woman": "women", "foot": "feet",
              "mouse": "mice", "index": "indexes", "series": "series", "data": "data", "news": "news",
              "criterion": "criteria", "analysis": "analyses", "axis": "axes", "status": "statuses"}


def starts_with_vowel_sound(word: str) -> bool:
    """Whether `word` (the first word after the article) is spoken starting with a vowel sound."""
    word = word.strip().lstrip("'\"‘“(")
    if not word:
        return False
    if word[0].isdigit():  # eight, eighty, eleven, eighteen
        digits = re.match(r"[\d,]+", word)
        number = (digits.group(0) if digits else word).replace(",", "")
        return number.startswith("8") or (number[:2] in ("11", "18") and len(number) % 3 == 2)
    head = re.match(r"[A-Za-z]+", word)
    if head is None:
        return False
    letters = head.group(0)
    if letters.isupper() and len(letters) > 1 and letters not in _ACRONYM_WORDS:
        return letters[0] in _VOWEL_NAMED_LETTERS  # an SQL, a PNG
    if letters.isupper() and len(letters) == 1 and len(word) > 1 and not word[1].isalpha():
        return letters in _VOWEL_NAMED_LETTERS  # an F-score, an X-ray, a B-side
    if letters.lower() in _SPELLED_FORMATS:
        return letters[0].upper() in _VOWEL_NAMED_LETTERS
    if _SILENT_H.match(letters):
        return True
    if letters[0].lower() in "aeiou":
        return not _VOWEL_LETTER_CONSONANT_SOUND.match(letters)
    return False


def article(phrase: str) -> str:
    """The indefinite article for `phrase`: "a" or "an" (`article("area chart") == "an"`)."""
    return "an" if starts_with_vowel_sound(phrase) else "a"


def with_article(phrase: str) -> str:
    """`phrase` after its indefinite article: "an area chart", "a bar chart", "an hour", "a user"."""
    return f"{article(phrase)} {phrase}"


def plural(noun: str) -> str:
    """The plural of `noun`; of a phrase, its last word ("bullet point" -> "bullet points"); an acronym takes a
    lower-case s ("IDs")."""
    head, _, last = noun.rpartition(" ")
    lower = last.lower()
    if last.isupper() and len(last) > 1:
        form = last + "s"  # an acronym: IDs, URLs, PDFs
    elif lower in _IRREGULAR:
        form = _IRREGULAR[lower]
        form = form.capitalize() if last[:1].isupper() else form
    elif re.search(r"(s|x|z|ch|sh)$", lower):
        form = last + "es"
    elif re.search(r"[^aeiou]y$", lower):
        form = last[:-1] + "ies"
    else:
        form = last + "s"
    return f"{head} {form}" if head else form


def noun_for(n: int | float, noun: str, plural_form: str | None = None) -> str:
    """`noun` agreeing with the number `n`: singular for exactly 1 (and -1), plural otherwise (0 rows, 1.5 hours)."""
    return noun if n in (1, -1) else (plural_form or plural(noun))


def count(n: int | float, noun: str, plural_form: str | None = None) -> str:
    """"1 row", "3 rows", "0 files": the number and its agreeing noun (`plural_form` for an irregular one)."""
    return f"{n} {noun_for(n, noun, plural_form)}"
