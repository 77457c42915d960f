"""Apple's official App Store Server Library (PyPI app-store-server-library) against the
simulator: its API client calls the endpoints, its SignedDataVerifier (strict, offline)
verifies every signed payload, ReceiptUtility reads a minted receipt, and its models parse
every answer. Reads the setup as JSON on stdin; prints one JSON object per check."""

import base64
import json
import sys
import time

import uuid

from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException, APIError, GetTransactionHistoryVersion
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
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


def history_v1_filtered():
    # The library's default version (v1), with the filters its models offer.
    subscriptions = client.get_transaction_history(
        setup["subscription"], None, TransactionHistoryRequest(productTypes=[ProductType.AUTO_RENEWABLE]))
    kinds = {transaction(signed).type for signed in subscriptions.signedTransactions}
    assert kinds == {"Auto-Renewable Subscription"}, kinds
    packs = client.get_transaction_history(setup["subscription"], None, TransactionHistoryRequest(productIds=["coins_60"]))
    products = {transaction(signed).productId for signed in packs.signedTransactions}
    assert products == {"coins_60"}, products
    revoked = client.get_transaction_history(setup["subscription"], None, TransactionHistoryRequest(revoked=True))
    refunded = [transaction(signed) for signed in revoked.signedTransactions]
    assert refunded and all(item.revocationDate for item in refunded), [item.transactionId for item in refunded]
    recent = client.get_transaction_history(
        setup["subscription"], None, TransactionHistoryRequest(startDate=setup["renewalPurchaseDate"]))
    dates = [transaction(signed).purchaseDate for signed in recent.signedTransactions]
    assert dates and min(dates) >= setup["renewalPurchaseDate"], dates
    return f"{len(kinds)} kind, {len(products)} product, {len(refunded)} revoked, {len(dates)} since"


def fields():
    # What Apple's models carry: a renewal keeps the original purchase date; renewal info
    # of an active subscription has no expiration intent, and has price, currency, start.
    renewal = transaction(client.get_transaction_info(setup["subscription"]).signedTransactionInfo)
    assert renewal.originalPurchaseDate == setup["originalPurchaseDate"], (renewal.originalPurchaseDate, setup["originalPurchaseDate"])
    assert renewal.transactionReason is not None and renewal.rawTransactionReason == "RENEWAL", renewal.rawTransactionReason
    assert renewal.appTransactionId == setup["appTransactionId"], renewal.appTransactionId
    assert renewal.price and renewal.currency, (renewal.price, renewal.currency)
    statuses = client.get_all_subscription_statuses(setup["subscription"])
    info = verifier.verify_and_decode_renewal_info(statuses.data[0].lastTransactions[0].signedRenewalInfo)
    assert info.expirationIntent is None and info.rawExpirationIntent is None, info.rawExpirationIntent
    assert info.appTransactionId == setup["appTransactionId"], info.appTransactionId
    assert info.currency and info.renewalPrice and info.recentSubscriptionStartDate, (info.currency, info.renewalPrice)
    assert info.recentSubscriptionStartDate == setup["originalPurchaseDate"], info.recentSubscriptionStartDate
    return renewal.transactionReason


def statuses_filtered():
    active = client.get_all_subscription_statuses(setup["subscription"], [Status.ACTIVE])
    assert sum(len(group.lastTransactions) for group in active.data) == 1, active.data
    expired = client.get_all_subscription_statuses(setup["subscription"], [Status.EXPIRED])
    assert not expired.data, expired.data
    return "1 active, 0 expired"


def app_transaction():
    answer = client.get_app_transaction_info(setup["subscription"])
    decoded = verifier.verify_and_decode_app_transaction(answer.signedAppTransactionInfo)
    assert decoded.appTransactionId == setup["appTransactionId"], decoded.appTransactionId
    return decoded.appTransactionId


def consumption():
    client.send_consumption_information(setup["consumable"], ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
        consumptionPercentage=25000, refundPreference=RefundPreference.DECLINE))
    try:
        client.send_consumption_information(setup["nonConsumable"], ConsumptionRequest(
            customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))
        raise AssertionError("a non-consumable's consumption was accepted")
    except APIException as refused:
        assert refused.api_error == APIError.INVALID_TRANSACTION_NOT_CONSUMABLE, refused.raw_api_error
    return "accepted, and refused for a non-consumable"


def extend():
    answer = client.extend_subscription_renewal_date(setup["original"], ExtendRenewalDateRequest(
        extendByDays=7, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=str(uuid.uuid4())))
    assert answer.success and answer.effectiveDate == setup["expiresDate"] + 7 * 86_400_000, (answer.effectiveDate, setup["expiresDate"])
    client.extend_subscription_renewal_date(setup["original"], ExtendRenewalDateRequest(
        extendByDays=1, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
    try:
        client.extend_subscription_renewal_date(setup["original"], ExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
        raise AssertionError("a third extension within a year was accepted")
    except APIException as refused:
        assert refused.api_error == APIError.SUBSCRIPTION_MAX_EXTENSION, refused.raw_api_error
    return answer.effectiveDate


def extend_for_all():
    request = str(uuid.uuid4())
    started = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=3, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=request,
        productId=setup["massProduct"]))
    assert started.requestIdentifier == request, started.requestIdentifier
    for _ in range(100):
        status = client.get_status_of_subscription_renewal_date_extensions(request, setup["massProduct"])
        if status.complete:
            assert status.succeededCount == setup["massSubscribers"] and status.failedCount == 0, (status.succeededCount, status.failedCount)
            return status.succeededCount
        time.sleep(0.05)
    raise AssertionError("the extension for all never completed")


def app_account_token():
    token = str(uuid.uuid4())
    client.set_app_account_token(setup["original"], UpdateAppAccountTokenRequest(appAccountToken=token))
    decoded = transaction(client.get_transaction_info(setup["subscription"]).signedTransactionInfo)
    assert decoded.appAccountToken == token, decoded.appAccountToken
    return token


def test_notification():
    token = client.request_test_notification().testNotificationToken
    answer = client.get_test_notification_status(token)
    decoded = verifier.verify_and_decode_notification(answer.signedPayload)
    assert decoded.notificationType == NotificationTypeV2.TEST, decoded.rawNotificationType
    assert answer.sendAttempts and answer.sendAttempts[0].sendAttemptResult is not None, answer.sendAttempts
    return answer.sendAttempts[0].rawSendAttemptResult


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
    # Every page of the last hour's history; each notification verified, each type and
    # subtype one Apple's models know, and every kind the controls made is there.
    now = int(time.time() * 1000)
    request = NotificationHistoryRequest(startDate=now - 3_600_000, endDate=now + 1)
    decoded, token = [], None
    while True:
        answer = client.get_notification_history(token, request)
        for item in answer.notificationHistory:
            decoded.append(verifier.verify_and_decode_notification(item.signedPayload))
            assert item.sendAttempts, "a notification without a send attempt"
        if not answer.hasMore:
            break
        token = answer.paginationToken
    assert decoded, "no notifications"
    for notification in decoded:
        about = notification.data or notification.summary or notification.appData or notification.externalPurchaseToken
        assert about.appAppleId == setup["appAppleId"], about.appAppleId
        if notification.data and notification.data.signedTransactionInfo:
            transaction(notification.data.signedTransactionInfo)
        if notification.data and notification.data.signedRenewalInfo:
            verifier.verify_and_decode_renewal_info(notification.data.signedRenewalInfo)
        if notification.appData:
            verifier.verify_and_decode_app_transaction(notification.appData.signedAppTransactionInfo)
    # EXTERNAL_PURCHASE_TOKEN's 2025 subtypes are newer than the library's models (3.1.x knows UNREPORTED only).
    newer = {("EXTERNAL_PURCHASE_TOKEN", "CREATED"), ("EXTERNAL_PURCHASE_TOKEN", "ACTIVE_TOKEN_REMINDER")}
    unknown = [n.rawNotificationType for n in decoded
               if n.notificationType is None or (n.rawSubtype and n.subtype is None and (n.rawNotificationType, n.rawSubtype) not in newer)]
    assert not unknown, f"types or subtypes Apple's models do not know: {unknown}"
    seen = {f"{n.rawNotificationType}/{n.rawSubtype}" if n.rawSubtype else n.rawNotificationType for n in decoded}
    missing = set(setup["expectedNotifications"]) - seen
    assert not missing, f"never sent: {sorted(missing)}"
    charges = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=now - 3_600_000, endDate=now + 1, notificationType=NotificationTypeV2.ONE_TIME_CHARGE))
    only = {verifier.verify_and_decode_notification(item.signedPayload).rawNotificationType for item in charges.notificationHistory}
    assert only == {"ONE_TIME_CHARGE"}, only
    return f"{len(decoded)} notifications, {len(seen)} kinds"


def finish():
    # Finish Transaction (API 1.20): taken for a known purchase, refused for one Apple never sold.
    client.finish_transaction(setup["consumable"])
    try:
        client.finish_transaction("999999999999")
        raise AssertionError("an unknown transaction was finished")
    except APIException as refused:
        assert refused.raw_api_error == 4040010, refused.raw_api_error
    return "finished, and refused for an unknown transaction"


def commitment():
    # Monthly billing with a 12-month commitment (API 1.21), cancelled on its third payment:
    # the payments go on, the commitment does not renew.
    decoded = transaction(client.get_transaction_info(setup["commitment"]).signedTransactionInfo)
    assert decoded.rawBillingPlanType == "MONTHLY" and decoded.billingPlanType is not None, decoded.rawBillingPlanType
    info = decoded.commitmentInfo
    assert info.billingPeriodNumber == 3 and info.totalBillingPeriods == 12, (info.billingPeriodNumber, info.totalBillingPeriods)
    assert info.commitmentExpiresDate == setup["commitmentEnd"] and info.commitmentPrice, (info.commitmentExpiresDate, setup["commitmentEnd"])
    statuses = client.get_all_subscription_statuses(setup["commitment"])
    item = next(i for group in statuses.data for i in group.lastTransactions if i.originalTransactionId == decoded.originalTransactionId)
    renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
    assert renewal.rawRenewalBillingPlanType == "MONTHLY", renewal.rawRenewalBillingPlanType
    assert renewal.rawAutoRenewStatus == 1, "payments go on during the commitment"
    plan = renewal.commitmentInfo
    assert plan.rawCommitmentAutoRenewStatus == 0 and plan.commitmentRenewalDate == setup["commitmentEnd"], (plan.rawCommitmentAutoRenewStatus, plan.commitmentRenewalDate)
    return f"payment {info.billingPeriodNumber} of {info.totalBillingPeriods}, commitment renews {plan.rawCommitmentAutoRenewStatus}"


def offers():
    # An offer code redeemed on a one-time product; a win-back offer a subscriber who left may take.
    coded = transaction(client.get_transaction_info(setup["offerCoded"]).signedTransactionInfo)
    assert coded.offerType == OfferType.OFFER_CODE and coded.offerIdentifier == "SPRING26", (coded.rawOfferType, coded.offerIdentifier)
    assert coded.type is not None and coded.rawType == "Non-Consumable", coded.rawType
    statuses = client.get_all_subscription_statuses(setup["winBack"], [Status.EXPIRED])
    renewal = verifier.verify_and_decode_renewal_info(statuses.data[0].lastTransactions[0].signedRenewalInfo)
    assert renewal.eligibleWinBackOfferIds == setup["winBackOffers"], renewal.eligibleWinBackOfferIds
    return f"{coded.offerIdentifier}; win-back {renewal.eligibleWinBackOfferIds}"


def hosts():
    # Apple's library 3.1.x calls api.storekit.apple.com (and -sandbox): iapdesk's defaults are the same.
    production = AppStoreServerAPIClient(setup["p8"].encode(), setup["keyId"], setup["issuerId"], setup["bundleId"], Environment.PRODUCTION)
    sandbox = AppStoreServerAPIClient(setup["p8"].encode(), setup["keyId"], setup["issuerId"], setup["bundleId"], Environment.SANDBOX)
    assert production._base_url == setup["productionHost"], (production._base_url, setup["productionHost"])
    assert sandbox._base_url == setup["sandboxHost"], (sandbox._base_url, setup["sandboxHost"])
    return production._base_url


def past_purchases():
    # A purchase dated ten days ago: its SUBSCRIBED and ONE_TIME_CHARGE are signed then, and verify.
    kinds = {}
    for key in ("pastSubscription", "pastCharge"):
        answer = client.get_notification_history(None, NotificationHistoryRequest(
            startDate=setup["pastDate"] - 60_000, endDate=setup["pastDate"] + 60_000, transactionId=setup[key]))
        decoded = [verifier.verify_and_decode_notification(item.signedPayload) for item in answer.notificationHistory]
        assert len(decoded) == 1 and decoded[0].signedDate == setup["pastDate"], [(n.rawNotificationType, n.signedDate) for n in decoded]
        kinds[key] = decoded[0].rawNotificationType
    assert kinds == {"pastSubscription": "SUBSCRIBED", "pastCharge": "ONE_TIME_CHARGE"}, kinds
    return kinds


def receipt():
    found = ReceiptUtility().extract_transaction_id_from_app_receipt(setup["receipt"])
    assert found in setup["receiptTransactions"], found
    return found


check("Get Transaction Info", info)
check("Get Transaction History (v2)", history)
check("Get Transaction History (v1, the default) with filters", history_v1_filtered)
check("Fields of transactions and renewal info", fields)
check("Get All Subscription Statuses with a status filter", statuses_filtered)
check("Get App Transaction Info", app_transaction)
check("Send Consumption Information (v2)", consumption)
check("Extend a Subscription Renewal Date", extend)
check("Extend for all active subscribers, and its status", extend_for_all)
check("Set App Account Token", app_account_token)
check("Request a Test Notification, and its status", test_notification)
check("Get All Subscription Statuses", statuses)
check("Look Up Order ID", lookup)
check("Get Refund History", refunds)
check("Get Notification History", notifications)
check("ReceiptUtility reads a minted receipt", receipt)
check("Finish Transaction", finish)
check("Monthly billing with a 12-month commitment", commitment)
check("Offer codes for one-time products, win-back eligibility", offers)
check("The api.storekit hosts", hosts)
check("Purchases dated in the past notify as of then", past_purchases)
