import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An `https://` request through URLSession's completion-handler API (not
/// its async one), waited for on the calling thread (the client's own,
/// never the Swift concurrency pool) up to the request's deadline.
enum TLSExchange {
    static func run(_ request: HTTPClient.Request, deadline: Deadline) throws -> HTTPClient.Response {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = max(0.001, Double(deadline.millisecondsLeft) / 1000)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let outcome = Mutex<Result<HTTPClient.Response, HTTPClientError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            let result: Result<HTTPClient.Response, HTTPClientError>
            if let http = response as? HTTPURLResponse, error == nil {
                let headers = http.allHeaderFields.map { ("\($0.key)", "\($0.value)") }
                result = .success(HTTPClient.Response(status: http.statusCode, headers: headers, body: data ?? Data(), url: request.url))
            } else {
                result = .failure(HTTPClientError(error?.localizedDescription ?? "not an HTTP response"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        let waited = done.wait(timeout: .now() + .milliseconds(Int(deadline.millisecondsLeft)))
        guard waited == .success, let result = outcome.withLock({ $0 }) else {
            task.cancel()
            throw deadline.expired("waiting for the https:// response")
        }
        return try result.get()
    }

    /// Leaves redirects to ``HTTPClient``, which follows them the same way
    /// for both schemes and within one deadline.
    final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}
