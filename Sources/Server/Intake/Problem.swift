import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OrderDomain
import OrderStore
import Presentation
import SafeText

/// An error answer as RFC 9457 problem details (`application/problem+json`): a type, a
/// title, the status, and a detail that names the field at fault. Strings from the request
/// are sanitized before they are echoed.
struct Problem: Error {
    var status: HTTPResponse.Status
    var title: String
    var detail: String
    /// Seconds after which a retry may succeed (`Retry-After`), for a 503.
    var retryAfter: Int? = nil

    static func badRequest(_ detail: String) -> Problem { Problem(status: .badRequest, title: "Bad request", detail: detail) }
    static let unauthorized = Problem(status: .unauthorized, title: "Unauthorized", detail: "send Authorization: Bearer <your game server's token>")
    /// Our side cannot take the request now (the store unreachable, its disk full): nothing
    /// was stored, and the same request later may succeed.
    static func unavailable(_ detail: String) -> Problem { Problem(status: .serviceUnavailable, title: "Unavailable", detail: detail, retryAfter: 2) }

    var response: Response {
        var response = JSONAnswer.response(
            status,
            encoding: SmallAnswers.ProblemDocument(
                type: "https://iapdesk.dev/problems/\(status.code)", title: title, status: status.code, detail: Sanitizer.sanitize(detail)),
            contentType: "application/problem+json")
        if let retryAfter { response.headers[.retryAfter] = "\(retryAfter)" }
        return response
    }

    /// The problem for an error from the store: what the caller can fix is a 4xx.
    static func from(_ error: any Error) -> Problem {
        switch error {
        case let problem as Problem: return problem
        case StoreError.notFound(let kind, let id):
            return Problem(status: .notFound, title: "Not found", detail: ErrorWords.what(StoreError.notFound(kind: kind, id: id)))
        case StoreError.invalid, StoreError.emptyReceipt, StoreError.orderExists: return .badRequest(ErrorWords.what(error))
        case StoreError.unknownProduct, StoreError.productRetired:
            // Well formed, and the catalogue says no: the studio's admin fixes the catalogue.
            return Problem(status: .unprocessableContent, title: "Unknown product", detail: ErrorWords.text(error))
        case StoreError.orderMismatch, StoreError.idempotencyMismatch:
            return Problem(status: .conflict, title: "Conflict", detail: ErrorWords.what(error))
        case is NIOTooManyBytesError:
            return Problem(status: .contentTooLarge, title: "Content too large", detail: "the body is over the limit of \(IntakeRoutes.maxBody) bytes")
        case let error as HTTPError where error.status == .contentTooLarge:
            return Problem(status: .contentTooLarge, title: "Content too large", detail: "the body is over the limit of \(IntakeRoutes.maxBody) bytes")
        case let error as HTTPError:
            // The router's own answers (no such route, a method a route does not take).
            return Problem(status: error.status, title: error.status.reasonPhrase, detail: error.body ?? error.status.reasonPhrase)
        case StoreError.unavailable:
            return .unavailable("the order store cannot be reached right now; nothing was stored; retry")
        default:
            // Our side failed: the client retries; nothing half stored.
            return .unavailable("the order store did not take the request; retry")
        }
    }
}

/// JSON answers: every body is an Encodable type (`IntakeAnswers`, `SmallAnswers`,
/// `GameEventBody`), encoded as its coding keys spell it, nil values left out, keys sorted.
enum JSONAnswer {
    static func response(_ status: HTTPResponse.Status, encoding body: some Encodable, contentType: String = "application/json") -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
