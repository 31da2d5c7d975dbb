import Foundation
import Testing

@testable import StoryKitHTTP


@Suite(.timeLimit(.minutes(10)))
struct StubServerTests {
    func makeServer(readTimeout: Double = 5) throws -> StubServer {
        var limits = StubServer.Limits()
        limits.readTimeout = readTimeout
        let server = try StubServer(name: "test", limits: limits)
        server.answer(StubRule(method: "GET", path: "/items/*", status: 200, body: #"{"ok":true}"#))
        server.answer(StubRule(method: "POST", path: "/echo", status: 201, body: "created"))
        return server
    }

    @Test("1,000 HTTPSteps requests over 50 concurrent connections are all answered")
    func httpStepsLoad() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let started = Date()
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<50 {
                group.addTask {
                    // The steps as a story uses them: one object per story.
                    let steps = HTTPSteps()
                    steps.baseURL = server.url
                    var ok = 0
                    for index in 0..<20 {
                        try await steps.send("GET", "/items/\(worker)-\(index)", body: nil)
                        let response = try steps.lastResponse()
                        if response.status == 200, response.body == Data(#"{"ok":true}"#.utf8) { ok += 1 }
                    }
                    return ok
                }
            }
            return try await group.reduce(0, +)
        }
        let seconds = Date().timeIntervalSince(started)
        print("HTTPSteps: 1000 requests, 50 concurrent, \(String(format: "%.2f", seconds)) s")
        #expect(answered == 1000)
        #expect(server.received.count == 1000)
        #expect(server.received.allSatisfy { $0.wasExpected })
    }

    @Test("1,000 curl requests over 50 parallel connections are all answered")
    func curlLoad() async throws {
        guard let curl = Self.curl() else {
            Issue.record("curl is not installed: make test-tools installs it")
            return
        }
        let server = try makeServer()
        defer { server.stop() }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("stub-curl-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: config) }
        let lines = (0..<1000).map { "url = \"\(server.url)/items/\($0)\"\noutput = \"/dev/null\"\nwrite-out = \"%{http_code}\\n\"" }
        try lines.joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        let started = Date()
        let output = try await Self.run(curl, ["-s", "--no-progress-meter", "--parallel", "--parallel-max", "50", "--max-time", "20", "-K", config.path])
        let seconds = Date().timeIntervalSince(started)
        print("curl: 1000 requests, 50 parallel, \(String(format: "%.2f", seconds)) s")
        #expect(output.split(separator: "\n").filter { $0 == "200" }.count == 1000)
        #expect(server.received.count == 1000)
    }

    @Test("A chunked body and keep-alive requests on one connection")
    func chunkedAndKeepAlive() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n")
        #expect(client.receive(until: "created").hasPrefix("HTTP/1.1 201 Created\r\n"))
        client.send("GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.receive(until: "true}").hasPrefix("HTTP/1.1 200 OK\r\n"))
        client.send("GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = client.receive()
        #expect(answer.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(answer.contains("no answer for GET /nothing (it answers: GET /items/*; POST /echo)"))
        #expect(server.received.map(\.body) == ["hello world", "", ""])
    }

    @Test(
        "Malformed requests are answered with 4xx or dropped",
        arguments: [
            ("bad request line", "GARBAGE\r\n\r\n", "HTTP/1.1 400 "),
            ("lower-case method", "get / HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "),
            ("unknown version", "GET / HTTP/9.9\r\n\r\n", "HTTP/1.1 400 "),
            ("header without colon", "GET / HTTP/1.1\r\nnot a header\r\n\r\n", "HTTP/1.1 400 "),
            ("bad content length", "POST /echo HTTP/1.1\r\nContent-Length: -4\r\n\r\n", "HTTP/1.1 400 "),
            ("bad chunk size", "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 400 "),
            ("length and chunks", "POST /echo HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "HTTP/1.1 400 "),
            ("huge body", "POST /echo HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n", "HTTP/1.1 413 "),
            ("huge headers", "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 100_000) + "\r\n\r\n", "HTTP/1.1 431 "),
            ("body shorter than its length", "POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", "HTTP/1.1 408 "),
            ("head that never ends", "GET / HTTP/1.1\r\nHost: x\r\n", "HTTP/1.1 408 "),
        ])
    func malformed(_ name: String, _ request: String, _ expected: String) throws {
        let server = try makeServer(readTimeout: 0.3)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(request)
        let answer = client.receive()
        #expect(answer.hasPrefix(expected), "\(name): \(answer.prefix(200))")
        #expect(server.received.contains { $0.problem != nil }, "\(name) is recorded as unexpected")
    }

    @Test("Bad clients, at once and mid-request, do not keep good ones from being answered")
    func badClientsAmongGoodOnes() async throws {
        let server = try makeServer(readTimeout: 0.5)
        defer { server.stop() }
        // 40 clients that hang up mid-request or send junk, 20 that stall.
        var stalled: [RawClient] = []
        for index in 0..<60 {
            let client = try RawClient(port: server.port)
            switch index % 3 {
            case 0: client.send("POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\nabc"); client.close()
            case 1: client.send([0, 1, 2, 255, 13, 10, 13, 10]); client.close()
            default: client.send("GET /items/1 HTT"); stalled.append(client)
            }
        }
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let request = HTTPClient.Request(method: "GET", url: URL(string: "\(server.url)/items/\(index)")!)
                    return try await HTTPClient.send(request, timeLimit: 10).status == 200
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 100)
        stalled.forEach { $0.close() }
    }

    @Test("Stopping the server releases its port and ends its connections")
    func stopReleasesPort() throws {
        let server = try makeServer()
        let client = try RawClient(port: server.port, timeout: 3)
        client.send("GET /items/1 HTTP/1.1\r\n\r\n")
        _ = client.receive(until: "true}")
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 2.5)
        #expect(client.receive().isEmpty)
        client.close()
        #expect(throws: (any Error).self) { try RawClient(port: server.port) }
    }

    @Test("A command the tests run is killed at its limit, and the test fails naming it")
    func commandLimit() async throws {
        let started = Date()
        let error = await #expect(throws: Overran.self) { try await Self.run("/bin/sleep", ["30"], limit: 0.5) }
        #expect(error?.description.contains("/bin/sleep 30 did not end within 0.5 s") == true, "\(String(describing: error))")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    static func curl() -> String? {
        ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A command the test ran that did not end within its limit.
    struct Overran: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path` and returns its standard output, waiting on a thread of
    /// its own (not the cooperative pool's) and killing it after `limit`
    /// seconds, when it throws ``Overran`` naming the command.
    static func run(_ path: String, _ arguments: [String], limit: Double = 120) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: path)
                    process.arguments = arguments
                    let pipe = Pipe()
                    process.standardOutput = pipe
                    try process.run()
                    let killer = DispatchWorkItem { kill(process.processIdentifier, SIGKILL) }
                    DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: killer)
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    killer.cancel()
                    if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
                        throw Overran(description: "\(path) \(arguments.joined(separator: " ")) did not end within \(String(format: "%g", limit)) s and was killed")
                    }
                    return String(decoding: data, as: UTF8.self)
                })
            }.start()
        }
    }
}
