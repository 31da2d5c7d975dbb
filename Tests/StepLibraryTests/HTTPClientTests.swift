import Foundation
import StoryKit
import Synchronization
import Testing

@testable import StoryKitHTTP

/// The client ``HTTPSteps`` sends its requests with (issue 34): the framing
/// of a body, redirects, headers, and servers that never answer or close early.
@Suite(.timeLimit(.minutes(10)))
struct HTTPClientTests {
    static func get(_ url: String, _ method: String = "GET", body: String? = nil, timeLimit: Double = 5) async throws -> HTTPClient.Response {
        try await HTTPClient.send(HTTPClient.Request(method: method, url: URL(string: url)!, body: body.map { Data($0.utf8) }), timeLimit: timeLimit)
    }

    /// The error a request gets, or nil.
    static func problem(_ url: String, method: String = "GET", timeLimit: Double = 5) async -> String? {
        do {
            _ = try await get(url, method, timeLimit: timeLimit)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("A body framed by Content-Length, the request's headers and body, and the response's headers")
    func contentLength() async throws {
        let server = try StubServer(name: "t")
        defer { server.stop() }
        server.answer(StubRule(method: "POST", path: "/orders", status: 201, headers: [("X-Order", "o-7")], body: #"{"id":"o-7"}"#))
        let request = HTTPClient.Request(
            method: "POST", url: URL(string: server.url + "/orders?x=a%20b")!, headers: [("X-Trace", "t-1")], body: Data("{\"n\":1}".utf8))
        let response = try await HTTPClient.send(request, timeLimit: 5)
        #expect(response.status == 201)
        #expect(response.header("x-order") == "o-7")
        #expect(response.header("Content-Type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"id":"o-7"}"#)
        let received = try #require(server.received.first)
        #expect(received.target == "/orders?x=a%20b")
        #expect(received.body == "{\"n\":1}")
        #expect(received.headers.contains { $0 == ("X-Trace", "t-1") })
    }

    @Test("A chunked body ends at its last chunk, though the server keeps the connection open")
    func chunked() async throws {
        let server = try RawServer { socket, _ in
            RawServer.send(socket, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n5\r\nhello\r\n")
            usleep(50_000)
            RawServer.send(socket, "6;x=y\r\n world\r\n0\r\nTrailer: t\r\n\r\n")
            RawServer.waitForClose(socket)
        }
        defer { server.stop() }
        let response = try await Self.get(server.url + "/c")
        #expect(String(decoding: response.body, as: UTF8.self) == "hello world")
        #expect(response.header("X-A") == "1")
    }

    @Test("A body without length ends when the server closes; 1xx answers are skipped; HEAD has no body")
    func closeDelimited() async throws {
        let server = try RawServer { socket, request in
            if request.hasPrefix("HEAD") {
                RawServer.send(socket, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
                RawServer.waitForClose(socket)
            } else {
                RawServer.send(socket, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end")
            }
        }
        defer { server.stop() }
        #expect(String(decoding: try await Self.get(server.url + "/").body, as: UTF8.self) == "until the end")
        let head = try await Self.get(server.url + "/", "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(server.requests.first?.hasPrefix("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n") == true)
    }

    @Test("Redirects as URLSession followed them: 302 turns POST into GET, 307 keeps it and its body, 303 turns PUT into GET; a loop ends")
    func redirects() async throws {
        let server = try StubServer(name: "t")
        defer { server.stop() }
        server.answer(StubRule(method: "POST", path: "/old", status: 302, headers: [("Location", "/new")]))
        server.answer(StubRule(method: "GET", path: "/new", status: 200, body: "new"))
        server.answer(StubRule(method: "POST", path: "/keep", status: 307, headers: [("Location", "\(server.url)/kept")]))
        server.answer(StubRule(method: "POST", path: "/kept", status: 201, body: "kept"))
        server.answer(StubRule(method: "PUT", path: "/put", status: 303, headers: [("Location", "new")]))
        server.answer(StubRule(method: "GET", path: "/loop", status: 301, headers: [("Location", "/loop")]))
        #expect(String(decoding: try await Self.get(server.url + "/old", "POST", body: "b1").body, as: UTF8.self) == "new")
        #expect(try await Self.get(server.url + "/keep", "POST", body: "b2").status == 201)
        #expect(try await Self.get(server.url + "/put", "PUT", body: "b3").status == 200)
        #expect(server.received.map { "\($0.method) \($0.target) \($0.body)" } == ["POST /old b1", "GET /new ", "POST /keep b2", "POST /kept b2", "PUT /put b3", "GET /new "])
        #expect(await Self.problem(server.url + "/loop")?.contains("more than 16 redirects") == true)
        #expect(server.received.count == 6 + 17)
    }

    @Test("A server that never answers fails the request at its time limit")
    func silentServer() async throws {
        let server = try RawServer { socket, _ in RawServer.waitForClose(socket) }
        defer { server.stop() }
        let started = Date()
        let problem = await Self.problem(server.url + "/", timeLimit: 0.5)
        let seconds = Date().timeIntervalSince(started)
        #expect(problem == "no response within the time limit of 0.5 s (waiting for the response head)")
        #expect(seconds >= 0.45 && seconds < 30, "\(seconds) s")
    }

    @Test("A server that closes early: before its head ends, and before its Content-Length")
    func earlyClose() async throws {
        let server = try RawServer { socket, request in
            RawServer.send(socket, request.contains("/half-head") ? "HTTP/1.1 200 OK\r\nContent-" : "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
        }
        defer { server.stop() }
        #expect(await Self.problem(server.url + "/half-head")
            == "the server closed the connection before the response ended (waiting for the response head)")
        #expect(await Self.problem(server.url + "/short-body")
            == "the server closed the connection after 3 of the 10 bytes of its Content-Length")
        #expect(await Self.problem("http://127.0.0.1:1/")?.hasPrefix("cannot connect to 127.0.0.1:1") == true)
    }

    @Test("Requests waiting for each other all complete: none holds a thread of the Swift concurrency pool while it waits")
    func poolStaysFree() async throws {
        // The server answers only once all 16 requests have arrived: a client
        // that blocked a pool thread per request (the pool has one per core)
        // would never get them all there, and each would time out.
        let count = 16
        let arrived = Mutex(0)
        let server = try RawServer { socket, _ in
            arrived.withLock { $0 += 1 }
            let end = Date().addingTimeInterval(10)
            while arrived.withLock({ $0 }) < count, Date() < end { usleep(1_000) }
            RawServer.send(socket, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count { group.addTask { try await Self.get(server.url + "/", timeLimit: 8).status } }
            return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
        }
        #expect(answered == count)
    }

    @Test("HTTPSteps fails a request at the story's time limit, naming the request")
    func stepTimeLimit() async throws {
        let server = try RawServer { socket, _ in RawServer.waitForClose(socket) }
        defer { server.stop() }
        let steps = HTTPSteps()
        steps.baseURL = server.url
        steps.timeLimit = 0.3
        await #expect {
            try await steps.send("GET", "/slow", body: nil)
        } throws: { error in
            "\(error)".contains("GET \(server.url)/slow got no response: no response within the time limit of 0.3 s")
        }
    }
}
