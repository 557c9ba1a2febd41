public import Hummingbird

/// Answers an error the routes did not expect (not an ``WorldCupError`` nor another
/// `HTTPResponseError`: a store that fails, a bug) with 500 and a reason, and logs it.
///
/// Without it Hummingbird answers such an error with 500 and an empty body, and logs it only at
/// debug level: the client cannot tell what happened and the operator never hears of it.
///
/// ```swift
/// router.add(middleware: UnexpectedErrorMiddleware())
/// ```
public struct UnexpectedErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// A middleware for a router's routes.
    public init() {}

    /// Runs the route; an unexpected error becomes a logged 500 whose body says what failed.
    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)",
                                 metadata: ["error.type": "\(type(of: error))"])
            throw HTTPError(.internalServerError, message: "the server could not carry out the request: \(error)")
        }
    }
}
