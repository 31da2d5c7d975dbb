import Foundation
import StepLibrarySupport
import StoryKit

extension HTTPSteps {
    static let methods = "(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)"

    /// Registers the steps; see the README's "HTTP services" section.
    public static func define(_ step: StepMap<HTTPSteps>) {
        step("^the base URL is (.+)$") { (steps: HTTPSteps, url: String) in
            steps.baseURL = Placeholders.expand(url.trimmingCharacters(in: CharacterSet(charactersIn: "\"")), in: steps.store)
        }
        step(#"^the request header "([^"]+)" is "(.*)"$"#) { (steps: HTTPSteps, name: String, value: String) in
            steps.headers.removeAll { $0.0.caseInsensitiveCompare(name) == .orderedSame }
            steps.headers.append((name, value))
        }
        step("^the request headers are:$") { (steps: HTTPSteps, table: DataTable) in
            for row in table.rows where row.count >= 2 {
                steps.headers.removeAll { $0.0.caseInsensitiveCompare(row[0]) == .orderedSame }
                steps.headers.append((row[0], row[1]))
            }
        }
        step(#"^the request time limit is (\d+(?:\.\d+)?) seconds?$"#) { (steps: HTTPSteps, seconds: Double) in
            steps.timeLimit = seconds
        }
        step(#"^I send \#(methods) (\S+)$"#) { (steps: HTTPSteps, method: String, path: String) in
            try await steps.send(method, path, body: nil)
        }
        step(#"^I send \#(methods) (\S+) with:$"#) { (steps: HTTPSteps, method: String, path: String, body: DocString) in
            try await steps.send(method, path, body: body)
        }
        step(#"^I send \#(methods) (\S+) with the query:$"#) { (steps: HTTPSteps, method: String, path: String, table: DataTable) in
            let pairs = table.rows.filter { $0.count >= 2 }.map { ($0[0], Placeholders.expand($0[1], in: steps.store)) }
            try await steps.send(method, path, body: nil, query: pairs)
        }
        defineChecks(step)
    }

    private static func defineChecks(_ step: StepMap<HTTPSteps>) {
        step(#"^the response status is (\d+)$"#) { (steps: HTTPSteps, status: Int) in
            let response = try steps.lastResponse()
            if response.status != status {
                try fail("\(response.request) answered \(response.status), not \(status); the body is:\n\(response.text.prefix(2000))")
            }
        }
        step(#"^the response header "([^"]+)" (is|contains) "(.*)"$"#) { (steps: HTTPSteps, name: String, check: String, value: String) in
            let response = try steps.lastResponse()
            guard let actual = response.header(name) else {
                try fail("the response has no header \(name); its headers: \(response.headers.map(\.0).sorted().joined(separator: ", "))")
            }
            if check == "is" ? actual != value : !actual.contains(value) {
                try fail("the response header \(name) is \"\(actual)\", which \(check == "is" ? "is not" : "does not contain") \"\(value)\"")
            }
        }
        step("^the response body is:$") { (steps: HTTPSteps, expected: DocString) in
            let response = try steps.lastResponse()
            if let diff = TextDiff.render(expected: Placeholders.expand(expected.content, in: steps.store), actual: response.text) {
                try fail("the body of the response to \(response.request) is not as expected:\n\(diff)")
            }
        }
        step(#"^the response body contains "(.*)"$"#) { (steps: HTTPSteps, expected: String) in
            let response = try steps.lastResponse()
            if !response.text.contains(expected) {
                try fail("the body of the response to \(response.request) does not contain \"\(expected)\"; it is:\n\(response.text.prefix(2000))")
            }
        }
        step("^the response body (is|contains) JSON:$") { (steps: HTTPSteps, check: String, expected: DocString) in
            let response = try steps.lastResponse()
            let wanted = try JSONValue.parseExpected(Placeholders.expand(expected.content, in: steps.store))
            let actual = try response.json()
            if !actual.matches(wanted, containing: check == "contains") {
                let diff = TextDiff.render(expected: wanted.withSortedKeys.indentedText, actual: actual.withSortedKeys.indentedText) ?? ""
                try fail("the JSON of the response to \(response.request) \(check == "is" ? "is not" : "does not contain") the JSON expected:\n\(diff)")
            }
        }
        step(#"^the response's "([^"]+)" is ("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)$"#) {
            (steps: HTTPSteps, path: String, literal: String) in
            let response = try steps.lastResponse()
            let written = Placeholders.expand(literal, in: steps.store)
            let wanted = try JSONValue.parseExpected(written)
            guard let actual = try response.json().value(at: path) else {
                try fail("the response to \(response.request) has no value at \(path); it is:\n\(response.text.prefix(2000))")
            }
            // The literal as the story wrote it (placeholders filled in), not as read back.
            if !actual.matches(wanted) { try fail("the response's \(path) is \(actual.sortedText), not \(written)") }
        }
        step(#"^the response's "([^"]+)" is stored as "([^"]+)"$"#) { (steps: HTTPSteps, path: String, key: String) in
            let response = try steps.lastResponse()
            guard let value = try response.json().value(at: path) else {
                try fail("the response to \(response.request) has no value at \(path); it is:\n\(response.text.prefix(2000))")
            }
            steps.store[key] = value.plainText
            log("stored \(value.sortedText) as \"\(key)\"")
        }
    }
}

extension JSONValue {
    /// Parses JSON a story wrote, failing the step with the problem.
    static func parseExpected(_ text: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            try fail("the JSON in the story is not valid: \(error)")
        }
    }
}
