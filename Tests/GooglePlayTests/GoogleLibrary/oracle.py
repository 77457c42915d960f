"""Google's own client libraries (PyPI google-api-python-client and google-auth) against the
Google Play simulator: google-auth's service-account credentials get a token from the
simulator's token endpoint; the API client, built from the androidpublisher v3 discovery
document it bundles, calls every endpoint the simulator serves and raises on every error
answer; every answer body is checked against that document's schemas (the client itself
does not); google-auth's token verification accepts the simulator's push tokens and refuses
altered ones. Reads the setup as JSON on stdin; prints one JSON object per check."""

import base64
import datetime
import json
import re
import sys
import time

import google.auth.transport.requests
from google.auth import jwt as google_jwt
from google.oauth2 import id_token, service_account
from googleapiclient import discovery
from googleapiclient.errors import HttpError

setup = json.load(sys.stdin)
credentials = service_account.Credentials.from_service_account_info(
    setup["serviceAccount"], scopes=["https://www.googleapis.com/auth/androidpublisher"])
service = discovery.build("androidpublisher", "v3", credentials=credentials, static_discovery=True,
                          client_options={"api_endpoint": setup["base"] + "/"}, cache_discovery=False)
document = discovery._retrieve_discovery_doc if False else None  # the bundled document, read below
with open(discovery.__file__.replace("discovery.py", "discovery_cache/documents/androidpublisher.v3.json")) as handle:
    schemas = json.load(handle)["schemas"]
purchases = service.purchases()
pkg = setup["packageName"]


def check(name, run):
    started = time.monotonic()
    try:
        detail = run()
        print(json.dumps({"check": name, "ok": True, "detail": f"{str(detail)[:300]} ({time.monotonic() - started:.1f} s)"}), flush=True)
    except Exception as error:  # the check failed: say how, go on with the next
        described = f"{type(error).__name__}: {error} ({time.monotonic() - started:.1f} s)"
        print(json.dumps({"check": name, "ok": False, "detail": described[:800]}), flush=True)


RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


def conforms(value, schema, path):
    """What the client does not check: every field a declared one of the declared type,
    enums within their values, int64 as a string of digits, times in RFC 3339."""
    if "$ref" in schema:
        schema = schemas[schema["$ref"]]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        assert isinstance(value, dict), f"{path}: an object expected, got {value!r}"
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if key in properties:
                conforms(item, properties[key], f"{path}.{key}")
            elif extra is not None:
                conforms(item, extra, f"{path}.{key}")
            else:
                raise AssertionError(f"{path}.{key}: not a field of the discovery document's schema")
    elif kind == "array":
        assert isinstance(value, list), f"{path}: an array expected"
        for index, item in enumerate(value):
            conforms(item, schema["items"], f"{path}[{index}]")
    elif kind == "string":
        assert isinstance(value, str), f"{path}: a string expected, got {value!r}"
        if "enum" in schema:
            assert value in schema["enum"], f"{path}: {value!r} is not one of {schema['enum']}"
        if schema.get("format") == "int64":
            assert re.fullmatch(r"-?\d+", value), f"{path}: int64 as a string of digits, got {value!r}"
        if schema.get("format") == "google-datetime":
            assert RFC3339.match(value), f"{path}: RFC 3339 expected, got {value!r}"
    elif kind == "integer":
        assert isinstance(value, int) and not isinstance(value, bool), f"{path}: an integer expected, got {value!r}"
    elif kind == "boolean":
        assert isinstance(value, bool), f"{path}: a boolean expected"
    elif kind == "number":
        assert isinstance(value, (int, float)), f"{path}: a number expected"
    return True


def answer(request, schema):
    body = request.execute(num_retries=0)
    if schema:
        conforms(body, {"$ref": schema}, schema)
    return body


def refused(request, status, reason):
    try:
        request.execute(num_retries=0)
    except HttpError as error:
        assert error.resp.status == status, (error.resp.status, error.reason)
        reasons = [detail.get("reason") for detail in (error.error_details or []) if isinstance(detail, dict)]
        assert reason in reasons, reasons
        return f"{status} {reason}"
    raise AssertionError(f"expected {status} {reason}, got an answer")


def one_time():
    got = answer(purchases.products().get(packageName=pkg, productId=setup["consumable"]["productId"],
                                           token=setup["consumable"]["token"]), "ProductPurchase")
    assert got["purchaseState"] == 0 and got["acknowledgementState"] == 0 and got["orderId"].startswith("GPA."), got
    assert got["obfuscatedExternalAccountId"] == setup["consumable"]["account"], got
    v2 = answer(purchases.productsv2().getproductpurchasev2(packageName=pkg, token=setup["consumable"]["token"]), "ProductPurchaseV2")
    assert v2["purchaseStateContext"]["purchaseState"] == "PURCHASED", v2
    assert v2["productLineItem"][0]["productOfferDetails"]["quantity"] == setup["consumable"]["quantity"], v2
    return got["orderId"]


def acknowledge_and_consume():
    answer(purchases.products().acknowledge(packageName=pkg, productId=setup["nonConsumable"]["productId"],
                                            token=setup["nonConsumable"]["token"], body={}), None)
    got = answer(purchases.products().get(packageName=pkg, productId=setup["nonConsumable"]["productId"],
                                           token=setup["nonConsumable"]["token"]), "ProductPurchase")
    assert got["acknowledgementState"] == 1, got
    answer(purchases.products().consume(packageName=pkg, productId=setup["consumable"]["productId"], token=setup["consumable"]["token"]), None)
    again = refused(purchases.products().consume(packageName=pkg, productId=setup["consumable"]["productId"],
                                                 token=setup["consumable"]["token"]), 400, "invalidPurchaseState")
    return f"acknowledged, consumed; consumed again: {again}"


def pending_and_test():
    pending = answer(purchases.productsv2().getproductpurchasev2(packageName=pkg, token=setup["pending"]), "ProductPurchaseV2")
    assert pending["purchaseStateContext"]["purchaseState"] == "PENDING" and "purchaseCompletionTime" not in pending, pending
    test = answer(purchases.productsv2().getproductpurchasev2(packageName=pkg, token=setup["test"]), "ProductPurchaseV2")
    assert test["testPurchaseContext"]["fopType"] == "TEST", test
    v1 = answer(purchases.products().get(packageName=pkg, productId="coins_60", token=setup["test"]), "ProductPurchase")
    assert v1.get("purchaseType") == 0, v1
    return "pending, and a license tester's purchase"


def subscription():
    got = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["subscription"]), "SubscriptionPurchaseV2")
    assert got["subscriptionState"] == "SUBSCRIPTION_STATE_ACTIVE", got["subscriptionState"]
    item = got["lineItems"][0]
    assert item["latestSuccessfulOrderId"].endswith("..1") and item["autoRenewingPlan"]["autoRenewEnabled"], item
    answer(purchases.subscriptions().acknowledge(packageName=pkg, subscriptionId="vip_monthly", token=setup["subscription"], body={}), None)
    acked = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["subscription"]), "SubscriptionPurchaseV2")
    assert acked["acknowledgementState"] == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED", acked
    return item["latestSuccessfulOrderId"]


def linked():
    got = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["upgraded"]), "SubscriptionPurchaseV2")
    assert got["linkedPurchaseToken"] == setup["subscription2"], got.get("linkedPurchaseToken")
    old = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["subscription2"]), "SubscriptionPurchaseV2")
    assert old["subscriptionState"] == "SUBSCRIPTION_STATE_EXPIRED" and "replacementCancellation" in old["canceledStateContext"], old
    return "upgrade linked to the old token"


def defer_cancel_revoke():
    current = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["upgraded"]), "SubscriptionPurchaseV2")
    deferred = answer(purchases.subscriptionsv2().defer(packageName=pkg, token=setup["upgraded"], body={
        "deferralContext": {"etag": current["etag"], "deferDuration": "604800s"}}), "DeferSubscriptionPurchaseResponse")
    stale = refused(purchases.subscriptionsv2().defer(packageName=pkg, token=setup["upgraded"], body={
        "deferralContext": {"etag": current["etag"], "deferDuration": "86400s"}}), 409, "conflict")
    answer(purchases.subscriptionsv2().cancel(packageName=pkg, token=setup["upgraded"], body={
        "cancellationContext": {"cancellationType": "DEVELOPER_REQUESTED_STOP_PAYMENTS"}}), "CancelSubscriptionPurchaseResponse")
    canceled = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["upgraded"]), "SubscriptionPurchaseV2")
    assert canceled["subscriptionState"] == "SUBSCRIPTION_STATE_CANCELED", canceled["subscriptionState"]
    answer(purchases.subscriptionsv2().revoke(packageName=pkg, token=setup["upgraded"], body={
        "revocationContext": {"fullRefund": {}}}), "RevokeSubscriptionPurchaseResponse")
    revoked = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["upgraded"]), "SubscriptionPurchaseV2")
    assert revoked["subscriptionState"] == "SUBSCRIPTION_STATE_EXPIRED", revoked["subscriptionState"]
    return f"deferred to {deferred['itemExpiryTimeDetails'][0]['expiryTime']}; a stale etag: {stale}; canceled; revoked"


def legacy_subscription_calls():
    got = answer(purchases.subscriptionsv2().get(packageName=pkg, token=setup["subscription"]), "SubscriptionPurchaseV2")
    end = datetime.datetime.fromisoformat(got["lineItems"][0]["expiryTime"].replace("Z", "+00:00"))
    expected = str(int(end.timestamp() * 1000))
    desired = str(int(end.timestamp() * 1000) + 86_400_000)
    deferred = answer(purchases.subscriptions().defer(packageName=pkg, subscriptionId="vip_monthly", token=setup["subscription"], body={
        "deferralInfo": {"expectedExpiryTimeMillis": expected, "desiredExpiryTimeMillis": desired}}), "SubscriptionPurchasesDeferResponse")
    assert deferred["newExpiryTimeMillis"] == desired, deferred
    answer(purchases.subscriptions().cancel(packageName=pkg, subscriptionId="vip_monthly", token=setup["subscription"]), None)
    return "v1 defer and cancel"


def voided():
    listed = answer(purchases.voidedpurchases().list(packageName=pkg, type=1, includeQuantityBasedPartialRefund=True),
                    "VoidedPurchasesListResponse")
    records = listed.get("voidedPurchases", [])
    tokens = {record["purchaseToken"] for record in records}
    assert setup["voided"] in tokens and setup["partial"] in tokens, tokens
    partial = [record for record in records if record["purchaseToken"] == setup["partial"]][0]
    assert partial["voidedQuantity"] == 2, partial
    one_time_only = answer(purchases.voidedpurchases().list(packageName=pkg), "VoidedPurchasesListResponse")
    assert all(record["purchaseToken"] != setup["upgraded"] for record in one_time_only.get("voidedPurchases", [])), "type 0 lists no subscription"
    paged = answer(purchases.voidedpurchases().list(packageName=pkg, type=1, includeQuantityBasedPartialRefund=True, maxResults=1),
                   "VoidedPurchasesListResponse")
    assert len(paged["voidedPurchases"]) == 1 and paged["tokenPagination"]["nextPageToken"], paged
    return f"{len(records)} voided"


def orders():
    orders_api = service.orders()
    got = answer(orders_api.get(packageName=pkg, orderId=setup["voidedOrder"]), "Order")
    assert got["state"] == "REFUNDED" and got["purchaseToken"] == setup["voided"], got
    batch = answer(orders_api.batchget(packageName=pkg, orderIds=[setup["voidedOrder"], setup["refundOrder"]]), "BatchGetOrdersResponse")
    assert len(batch["orders"]) == 2, batch
    answer(orders_api.refund(packageName=pkg, orderId=setup["refundOrder"], revoke=True), None)
    refunded = answer(orders_api.get(packageName=pkg, orderId=setup["refundOrder"]), "Order")
    assert refunded["state"] == "REFUNDED", refunded["state"]
    return "get, batchGet, refund with revoke"


def errors():
    unknown = refused(purchases.productsv2().getproductpurchasev2(packageName=pkg, token="nosuchtoken.AO-J1Ox"), 404, "purchaseTokenNotFound")
    mismatch = refused(purchases.products().get(packageName=pkg, productId="no_ads", token=setup["consumable"]["token"]),
                       400, "purchaseTokenDoesNotMatchProductId")
    other = refused(purchases.productsv2().getproductpurchasev2(packageName="com.other.app", token=setup["consumable"]["token"]),
                    403, "permissionDenied")
    return f"{unknown}; {mismatch}; {other}"


def push_tokens():
    request = google.auth.transport.requests.Request()
    claims = id_token.verify_token(setup["pushToken"], request, audience=setup["audience"], certs_url=setup["base"] + "/certs")
    # google-auth checks the signature, audience and times; the issuer and the push account are the caller's to check.
    assert claims["iss"] == "https://accounts.google.com" and claims["email_verified"] is True, claims
    assert claims["email"] == setup["pushAccount"], claims["email"]
    header, payload, signature = setup["pushToken"].split(".")
    forged_claims = dict(claims, email="attacker@example.com")
    forged_payload = base64.urlsafe_b64encode(json.dumps(forged_claims).encode()).decode().rstrip("=")
    for altered in (f"{header}.{forged_payload}.{signature}", f"{header}.{payload}.{signature[:-4]}AAAA"):
        try:
            id_token.verify_token(altered, request, audience=setup["audience"], certs_url=setup["base"] + "/certs")
            raise AssertionError("an altered push token was accepted")
        except ValueError:
            pass
    try:
        id_token.verify_token(setup["pushToken"], request, audience="https://elsewhere.example/push", certs_url=setup["base"] + "/certs")
        raise AssertionError("a push token for another audience was accepted")
    except ValueError:
        pass
    certs = json.loads(google.auth.transport.requests.Request()(setup["base"] + "/certs").data)
    offline = google_jwt.decode(setup["pushToken"], certs=certs, audience=setup["audience"])
    assert offline["sub"] == claims["sub"], offline
    return "accepted, an altered one and another audience's refused"


def notifications():
    # The pushed bodies: Pub/Sub's envelope, and in it the DeveloperNotification Google documents.
    kinds = set()
    for body in setup["pushBodies"]:
        envelope = json.loads(body)
        message = envelope["message"]
        assert message["messageId"] == message["message_id"] and RFC3339.match(message["publishTime"]), message
        assert envelope["subscription"].startswith("projects/"), envelope
        notification = json.loads(base64.b64decode(message["data"]))
        assert notification["version"] == "1.0" and notification["packageName"] == pkg, notification
        assert re.fullmatch(r"\d+", notification["eventTimeMillis"]), notification
        parts = [key for key in ("subscriptionNotification", "oneTimeProductNotification", "voidedPurchaseNotification", "testNotification")
                 if key in notification]
        assert len(parts) == 1, notification
        part = notification[parts[0]]
        if parts[0] == "subscriptionNotification":
            assert part["notificationType"] in (1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 20) and part["purchaseToken"], part
            kinds.add(f"subscription/{part['notificationType']}")
        elif parts[0] == "oneTimeProductNotification":
            assert part["notificationType"] in (1, 2) and part["purchaseToken"] and part["sku"], part
            kinds.add(f"oneTime/{part['notificationType']}")
        elif parts[0] == "voidedPurchaseNotification":
            assert part["productType"] in (1, 2) and part["refundType"] in (1, 2) and part["orderId"].startswith("GPA."), part
            kinds.add(f"voided/{part['productType']}/{part['refundType']}")
        else:
            kinds.add("test")
    missing = set(setup["expectedKinds"]) - kinds
    assert not missing, f"never pushed: {sorted(missing)}"
    return f"{len(setup['pushBodies'])} notifications, {len(kinds)} kinds"


check("products.get and productsv2 for a one-time purchase", one_time)
check("products.acknowledge and products.consume", acknowledge_and_consume)
check("A pending purchase and a license tester's", pending_and_test)
check("subscriptionsv2.get and subscriptions.acknowledge", subscription)
check("A plan change's linkedPurchaseToken", linked)
check("subscriptionsv2.defer, cancel and revoke", defer_cancel_revoke)
check("subscriptions.defer and cancel (v1)", legacy_subscription_calls)
check("voidedpurchases.list: types, partial refunds, pages", voided)
check("orders.get, batchget and refund", orders)
check("Google's errors, as HttpError", errors)
check("Push tokens verified by google-auth", push_tokens)
check("Pushed notifications", notifications)
