"""Apple's SignedDataVerifier (strict, offline) on signed transactions whose certificate
chains differ from Apple's in one way each. Reads {"rootDER", "bundleId", "appAppleId",
"cases": [{"name", "jws"}]} as JSON on stdin; prints one JSON object per case: ok when
Apple's verifier accepts it, with its verdict."""

import base64
import json
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

setup = json.load(sys.stdin)
verifier = SignedDataVerifier(
    [base64.b64decode(setup["rootDER"])], False, Environment.PRODUCTION, setup["bundleId"], setup["appAppleId"])
for case in setup["cases"]:
    try:
        verifier.verify_and_decode_signed_transaction(case["jws"])
        print(json.dumps({"check": case["name"], "ok": True, "detail": "accepted"}))
    except Exception as error:  # Apple's verdict, whatever it is
        status = getattr(error, "status", None)
        print(json.dumps({"check": case["name"], "ok": False, "detail": f"{type(error).__name__} {status}"}))
