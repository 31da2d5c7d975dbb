import Foundation
import StepLibrarySupport
import StoryKit

/// Steps that declare, in the story, the services a program talks to: a
/// stub HTTP server per service name, started on 127.0.0.1 the first time a
/// story names it and stopped when the story ends.
///
/// A service named `payment` is reachable as `{payment service}` in later
/// steps (the store holds its URL under `payment service`) and as
/// `$PAYMENT_SERVICE_URL` in the commands ``StoryKitProcess`` steps start.
public final class StubServiceSteps: StepLibrary {
    var servers: [String: StubServer] = [:]

    public required init() {}

    /// The server of a service, started if the story has not started it.
    func server(_ name: String) throws -> StubServer {
        if let server = servers[name] { return server }
        let server = try StubServer(name: name)
        servers[name] = server
        store["\(name) service"] = server.url
        let variable = name.uppercased().replacingOccurrences(of: "-", with: "_") + "_SERVICE_URL"
        SharedEnvironment.set(variable, to: server.url, in: store)
        log("the \(name) service stub listens at \(server.url) ({\(name) service}, $\(variable))")
        return server
    }

    /// The server of a service the story declared, or a failure.
    func declared(_ name: String) throws -> StubServer {
        guard let server = servers[name] else {
            try fail("the story declared no \(name) service; services declared: \(servers.keys.sorted().joined(separator: ", "))")
        }
        return server
    }

    static let methods = HTTPSteps.methods
    static let service = #"the (\w[\w-]*) service"#

    /// Registers the steps; see the README's "Stub services" section.
    public static func define(_ step: StepMap<StubServiceSteps>) {
        step.after { steps in
            for server in steps.servers.values { server.stop() }
            steps.servers = [:]
        }
        let answers = #"^\#(service) answers (once )?\#(methods) (\S+)(?: whose body contains "([^"]*)")? with status (\d+)(?: after (\d+) ms)?"#
        step(answers + "$") {
            (steps: StubServiceSteps, name: String, once: String?, method: String, path: String, bodyContains: String?, status: Int, delay: Int?) in
            try steps.addRule(name, once, method, path, bodyContains, status, delay, body: nil)
        }
        step(answers + " and:$") {
            (steps: StubServiceSteps, name: String, once: String?, method: String, path: String, bodyContains: String?, status: Int, delay: Int?, body: DocString) in
            try steps.addRule(name, once, method, path, bodyContains, status, delay, body: body)
        }
        step(#"^the stub (\w[\w-]*) service is running$"#) { (steps: StubServiceSteps, name: String) in
            _ = try steps.server(name)
        }
        defineChecks(step)
    }

    private func addRule(
        _ name: String, _ once: String?, _ method: String, _ path: String, _ bodyContains: String?, _ status: Int, _ delay: Int?,
        body: DocString?
    ) throws {
        let server = try server(name)
        var headers: [(String, String)] = []
        if let type = body?.mediaType, !type.isEmpty {
            headers.append(("Content-Type", type.contains("/") ? type : (type == "json" ? "application/json" : "text/\(type)")))
        }
        server.answer(
            StubRule(
                method: method, path: Placeholders.expand(path, in: store), bodyContains: bodyContains, status: status,
                headers: headers, body: body.map { Placeholders.expand($0.content, in: store) } ?? "",
                delay: Double(min(delay ?? 0, 60_000)) / 1000, isOnce: once != nil))
    }

    private static func defineChecks(_ step: StepMap<StubServiceSteps>) {
        let received = #"^\#(service) received (\d+) \#(methods) (\S+)"#
        step(received + "$") { (steps: StubServiceSteps, name: String, count: Int, method: String, path: String) in
            try steps.expectReceived(name, count, method, path, what: "") { _ in true }
        }
        step(received + " with JSON( containing)?:$") {
            (steps: StubServiceSteps, name: String, count: Int, method: String, path: String, containing: String?, expected: DocString) in
            let wanted = try JSONValue.parseExpected(Placeholders.expand(expected.content, in: steps.store))
            try steps.expectReceived(name, count, method, path, what: " with JSON\(containing ?? "") \(wanted.sortedText)") { request in
                guard let json = try? JSONValue(parsing: request.body) else { return false }
                return json.matches(wanted, containing: containing != nil)
            }
        }
        step(#"^\#(service) received nothing unexpected$"#) { (steps: StubServiceSteps, name: String) in
            let server = try steps.declared(name)
            let unexpected = server.received.filter { !$0.wasExpected }
            if !unexpected.isEmpty {
                try fail("the \(name) service received \(unexpected.count) request(s) the story gave no answer for:\n"
                    + unexpected.prefix(20).map { "  " + $0.summary }.joined(separator: "\n")
                    + "\nits answers: \(server.ruleNames.joined(separator: "; "))")
            }
        }
        step(#"^\#(service) received no requests$"#) { (steps: StubServiceSteps, name: String) in
            let server = try steps.declared(name)
            let all = server.received
            if !all.isEmpty {
                try fail("the \(name) service received \(all.count) request(s):\n" + all.prefix(20).map { "  " + $0.summary }.joined(separator: "\n"))
            }
        }
    }

    /// Fails unless a service received `count` requests for a method and
    /// path that pass a test, listing what it did receive.
    private func expectReceived(
        _ name: String, _ count: Int, _ method: String, _ path: String, what: String, _ test: (ReceivedRequest) -> Bool
    ) throws {
        let server = try declared(name)
        let pattern = Placeholders.expand(path, in: store)
        let all = server.received
        let matching = all.filter { $0.method == method && StubRule.path(pattern, matches: $0.target) && test($0) }
        if matching.count != count {
            let list = all.isEmpty ? "nothing" : "\n" + all.prefix(20).map { "  " + $0.summary }.joined(separator: "\n")
            try fail("the \(name) service received \(matching.count) \(method) \(pattern)\(what), not \(count); it received: \(list)")
        }
    }
}
