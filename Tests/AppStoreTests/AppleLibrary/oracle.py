"""Apple's official App Store Server Library (PyPI app-store-server-library) against the
simulator: its API client calls the endpoints, its SignedDataVerifier (strict, offline)
verifies every signed payload, ReceiptUtility reads a minted receipt, and its models parse
every answer. Reads the setup as JSON on stdin; prints one JSON object per check."""

import base64
import json
import sys
import time

from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, TransactionHistoryRequest
from appstoreserverlibrary.receipt_utility import ReceiptUtility
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

setup = json.load(sys.stdin)
client = AppStoreServerAPIClient(
    setup["p8"].encode(), setup["keyId"], setup["issuerId"], setup["bundleId"], Environment.PRODUCTION)
client._base_url = setup["base"]  # the simulator instead of api.storekit.apple.com
root_der = base64.b64decode("".join(line for line in setup["rootPEM"].splitlines() if not line.startswith("-----")))
verifier = SignedDataVerifier(
    [root_der], False, Environment.PRODUCTION, setup["bundleId"], setup["appAppleId"])


def check(name, run):
    try:
        detail = run()
        print(json.dumps({"check": name, "ok": True, "detail": str(detail)[:300]}))
    except Exception as error:  # the check failed: say how, go on with the next
        described = f"{type(error).__name__}: {error}"
        if isinstance(error, APIException):
            described += f" (http {error.http_status_code}, api error {error.raw_api_error}, {error.error_message})"
        print(json.dumps({"check": name, "ok": False, "detail": described[:600]}))


def transaction(signed):
    decoded = verifier.verify_and_decode_signed_transaction(signed)
    assert decoded.bundleId == setup["bundleId"], decoded.bundleId
    return decoded


def info():
    answer = client.get_transaction_info(setup["subscription"])
    decoded = transaction(answer.signedTransactionInfo)
    assert decoded.transactionId == setup["subscription"], decoded.transactionId
    return decoded.productId


def history():
    answer = client.get_transaction_history(
        setup["subscription"], None, TransactionHistoryRequest(sort=Order.ASCENDING), GetTransactionHistoryVersion.V2)
    decoded = [transaction(signed) for signed in answer.signedTransactions]
    assert decoded, "no transactions"
    assert answer.appAppleId == setup["appAppleId"], answer.appAppleId
    return [item.transactionId for item in decoded]


def statuses():
    answer = client.get_all_subscription_statuses(setup["subscription"])
    assert answer.appAppleId == setup["appAppleId"], answer.appAppleId
    seen = 0
    for group in answer.data:
        for item in group.lastTransactions:
            transaction(item.signedTransactionInfo)
            renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
            assert renewal.originalTransactionId == item.originalTransactionId, renewal.originalTransactionId
            seen += 1
    assert seen, "no subscription in the answer"
    return seen


def lookup():
    answer = client.look_up_order_id(setup["orderId"])
    decoded = [transaction(signed) for signed in answer.signedTransactions]
    assert decoded, f"status {answer.status}, no transactions"
    return [item.transactionId for item in decoded]


def refunds():
    answer = client.get_refund_history(setup["refunded"], None)
    decoded = [transaction(signed) for signed in answer.signedTransactions]
    assert any(item.revocationDate for item in decoded), "no revoked transaction"
    return len(decoded)


def notifications():
    now = int(time.time() * 1000)
    answer = client.get_notification_history(None, NotificationHistoryRequest(startDate=now - 3_600_000, endDate=now))
    decoded = [verifier.verify_and_decode_notification(item.signedPayload) for item in answer.notificationHistory]
    assert decoded, "no notifications"
    for notification in decoded:
        assert notification.data.appAppleId == setup["appAppleId"], notification.data.appAppleId
        if notification.data.signedTransactionInfo:
            transaction(notification.data.signedTransactionInfo)
        if notification.data.signedRenewalInfo:
            verifier.verify_and_decode_renewal_info(notification.data.signedRenewalInfo)
    return [notification.rawNotificationType for notification in decoded]


def receipt():
    found = ReceiptUtility().extract_transaction_id_from_app_receipt(setup["receipt"])
    assert found in setup["receiptTransactions"], found
    return found


check("Get Transaction Info", info)
check("Get Transaction History (v2)", history)
check("Get All Subscription Statuses", statuses)
check("Look Up Order ID", lookup)
check("Get Refund History", refunds)
check("Get Notification History", notifications)
check("ReceiptUtility reads a minted receipt", receipt)
