#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""schema_check.py SCHEMA FILE...: each FILE must be one JSON document, well-formed UTF-8
(RFC 8259 section 8.1), that validates against SCHEMA (JSON Schema 2020-12, the
python3-jsonschema package).  Prints the first error of each bad file; exit 1 if any."""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        raw = open(path, "rb").read()
        try:
            doc = json.loads(raw.decode("utf-8", errors="strict"))
        except (UnicodeDecodeError, ValueError) as e:
            print(f"{path}: not a UTF-8 JSON document: {e}", file=sys.stderr)
            bad += 1
            continue
        err = next(iter(sorted(validator.iter_errors(doc), key=str)), None)
        if err is not None:
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{path}: {sys.argv[1]}: at '{where}': {err.message}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
