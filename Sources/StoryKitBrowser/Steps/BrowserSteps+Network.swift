import Foundation
import StepLibrarySupport
import StoryKit

extension BrowserSteps {
    static let methods = "(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)"

    static func defineNetwork(_ step: StepMap<BrowserSteps>) {
        let answers = #"^the API answers (once )?\#(methods) (\S+) with status (\d+)(?: after (\d+) ms)?"#
        step(answers + "$") { (steps: BrowserSteps, once: String?, method: String, path: String, status: Int, delay: Int?) in
            try await steps.addAnswer(once, method, path, status, delay, nil)
        }
        step(answers + " and:$") { (steps: BrowserSteps, once: String?, method: String, path: String, status: Int, delay: Int?, body: DocString) in
            try await steps.addAnswer(once, method, path, status, delay, body)
        }
        let requested = #"^the page requested \#(methods) (\S+)"#
        step(requested + #"(?: (\d+ times?|once|twice))?$"#) { (steps: BrowserSteps, method: String, path: String, times: String?) in
            let count = times.map { $0 == "once" ? 1 : $0 == "twice" ? 2 : Int($0.prefix { $0.isNumber }) ?? 0 }
            try await steps.expectRequested(method, path, count: count, what: "") { _ in true }
        }
        step(requested + " with JSON( containing)?:$") { (steps: BrowserSteps, method: String, path: String, containing: String?, expected: DocString) in
            let text = Placeholders.expand(expected.content, in: steps.store)
            let wanted: JSONValue
            do { wanted = try JSONValue(parsing: text) } catch {
                try fail("the JSON in the story is not valid (\(error)):\n\(text)")
            }
            try await steps.expectRequested(method, path, count: nil, what: " with JSON\(containing ?? "") \(text)") { request in
                guard let body = try? JSONValue(parsing: request.body) else { return false }
                return body.matches(wanted, containing: containing != nil)
            }
        }
        step(#"^the page made no unexpected requests$"#) { steps in
            try await steps.perform { page in
                let unexpected = page.network.requests.filter { !$0.wasExpected }
                if !unexpected.isEmpty {
                    throw BrowserError("the page made \(unexpected.count) request(s) the story gave no answer for:\n"
                        + unexpected.prefix(20).map { "  " + $0.summary }.joined(separator: "\n")
                        + "\nthe story answers: \(page.network.ruleNames.joined(separator: "; "))")
                }
            }
        }
    }

    private func addAnswer(_ once: String?, _ method: String, _ path: String, _ status: Int, _ delay: Int?, _ body: DocString?) async throws {
        var type: String?
        if let media = body?.mediaType, !media.isEmpty {
            type = media.contains("/") ? media : media == "json" ? "application/json" : "text/\(media)"
        }
        let rule = PageNetwork.Rule(
            method: method, path: Placeholders.expand(path, in: store), status: status,
            body: body.map { Placeholders.expand($0.content, in: store) } ?? "", contentType: type,
            delay: Double(min(delay ?? 0, 60_000)) / 1000, isOnce: once != nil)
        try await perform { try $0.network.add(rule) }
    }

    /// Fails unless the page made `count` (or at least one) matching requests, listing what it made.
    private func expectRequested(
        _ method: String, _ path: String, count: Int?, what: String, _ test: @escaping (PageNetwork.Request) -> Bool
    ) async throws {
        let pattern = Placeholders.expand(path, in: store)
        try await perform { page in
            var matching = 0
            try await eventually(page, {
                matching = page.network.requests.filter {
                    $0.method == method && PageNetwork.path(pattern, matches: pattern.hasPrefix("http") ? $0.url : $0.target) && test($0)
                }.count
                return count.map { matching == $0 } ?? (matching > 0)
            }, {
                let all = page.network.requests
                let list = all.isEmpty ? "nothing (only requests made after the story's first `the API answers` are seen)"
                    : "\n" + all.prefix(20).map { "  " + $0.summary }.joined(separator: "\n")
                return "the page requested \(method) \(pattern)\(what) \(matching) time(s), not \(count.map(String.init) ?? "at least once"); it requested: \(list)"
            })
        }
    }
}
