"""Runs the official IIIF Image API validator (iiif-validator-ng) against a live server and prints
one JSON line: the compliance level it detected, every test it found applicable, and each failure.

Run by the Python (3.12 or newer) of the validator's own virtualenv; test_iiif.py reads its output.
    python iiif_validate.py http://127.0.0.1:PORT/iiif/3 IDENTIFIER
"""

import json
import sys

from iiif_validator.tests.test import IIIFVersion, TargetServer, ValidationFailure, get_tests
from iiif_validator.validate import _test_is_applicable, run_tests


def main(base_url, identifier):
    server = TargetServer(base_url, validation_id=identifier, version=IIIFVersion.V3)
    features = server.feature_set()
    applicable = sorted(t.__module__.rsplit(".", 1)[-1] for t in get_tests(IIIFVersion.V3) if _test_is_applicable(t, features))
    passed, failures = 0, []
    for test, result in run_tests(server, max_threads=4):
        for outcome in result if isinstance(result, list) else [result]:
            if isinstance(outcome, ValidationFailure):
                failures.append({"test": test.__module__.rsplit(".", 1)[-1], "details": outcome.details,
                                 "expected": outcome.expected, "received": outcome.received[:300], "url": outcome.url})
            else:
                passed += 1
    print(json.dumps({"level": features.compliance_level.name, "applicable": applicable, "passed": passed,
                      "failures": failures}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
