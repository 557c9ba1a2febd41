public import Hummingbird

extension WorldCupError: HTTPResponseError {
    /// The HTTP status for the error's kind.
    public var status: HTTPResponse.Status {
        switch kind {
        case .invalidInput, .malformedRequest: .badRequest
        case .unknownTeam: .notFound
        case .duplicateTeam: .conflict
        case .busy: .serviceUnavailable
        case .missingResource: .internalServerError
        }
    }

    /// `Retry-After: 1` for ``WorldCupError/Kind/busy``: the request can succeed as it is.
    public var headers: HTTPFields {
        kind == .busy ? [.retryAfter: "1"] : [:]
    }

    /// The status, with the reason in Hummingbird's error body: `{"error":{"message":…}}`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try HTTPError(status, headers: headers, message: reason).response(from: request, context: context)
    }
}
