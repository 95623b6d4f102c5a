#!/usr/bin/env python3
"""ts-fill: merges translations from a plain "source<TAB>translation" glossary into a .ts file.

Usage: scripts/ts-fill.py translations/cachescope_zh_CN.ts translations/zh_CN*.tsv
Each feature may keep its own glossary (translations/zh_CN.<feature>.tsv); all are merged.
Messages whose source is in the glossary get that translation (marked finished; a %n message
gets it as its one plural form, as Chinese has one); the script
prints the sources still untranslated and exits 1 if there are any, so a check can use it.
"""
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    ts_path, glossary_paths = sys.argv[1], sys.argv[2:]
    glossary = {}
    for glossary_path in glossary_paths:
        with open(glossary_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                source, translation = line.split("\t", 1)
                glossary[source.replace("\\n", "\n")] = translation.replace("\\n", "\n")
    tree = ET.parse(ts_path)
    missing = []
    for message in tree.iter("message"):
        source = message.findtext("source")
        translation = message.find("translation")
        forms = translation.findall("numerusform")
        if source in glossary:
            if forms:  # a %n message: Chinese has one plural form
                for form in forms:
                    form.text = glossary[source]
            else:
                translation.text = glossary[source]
            translation.attrib.pop("type", None)
        elif translation.get("type") == "unfinished" or not (translation.text or any(form.text for form in forms)):
            missing.append(source)
    with open(ts_path, "wb") as f:
        f.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        ET.indent(tree, space="    ")
        tree.write(f, encoding="utf-8", xml_declaration=False)
        f.write(b"\n")
    for source in missing:
        print("untranslated:", source)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
