import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a to-do list to a sync server: `POST /lists` with the items as
/// JSON; the server answers with the list's id.
public struct SyncClient: Sendable {
    public var server: URL

    public init(server: URL) { self.server = server }

    public enum SyncError: Error, CustomStringConvertible {
        case refused(status: Int)
        case unreadable
        public var description: String {
            switch self {
            case .refused(let status): "the server answered \(status)"
            case .unreadable: "the server's answer has no list id"
            }
        }
    }

    /// Sends the items; returns the id the server gave the list.
    public func send(_ items: [TodoItem]) async throws -> String {
        var request = URLRequest(url: server.appendingPathComponent("lists"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["items": items])
        request.timeoutInterval = 5
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw SyncError.refused(status: status) }
        guard let answer = try? JSONDecoder().decode([String: String].self, from: data), let id = answer["id"] else {
            throw SyncError.unreadable
        }
        return id
    }
}
