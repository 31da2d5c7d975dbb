import Foundation
import StoryKit

extension BrowserPage {
    /// A page-script function's answer, or nil between documents.
    func answer(_ function: String, _ locator: Locator?) throws -> CDPObject? {
        CDPObject(object: try evaluateIfAlive(PageScript.call(function, locator?.json ?? "null")))
    }
}

extension BrowserSteps {
    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Waits until the page (or a region) shows, or no longer shows, a text.
    func expectText(_ text: String, within region: String?, shown: Bool) async throws {
        let wanted = Self.normalized(text)
        let scope = Self.region(region)
        try await perform { page in
            var last: CDPObject?
            try await eventually(page, {
                last = try page.answer("text", scope)
                guard let answer = last, answer.string("state") == "ok" else { return false }
                return Self.normalized(answer.string("text") ?? "").contains(wanted) == shown
            }, {
                if let answer = last, answer.string("state") != "ok" {
                    return Self.explain(answer, Locator(.text, text).within(scope), timeLimit: timeLimit)
                }
                let page = (last?.string("text") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                let place = scope.map { "\($0)" } ?? "the page"
                return shown
                    ? "\(place) did not show \"\(text)\" within \(CDPConnection.seconds(timeLimit)); it shows:\n\(page.prefix(2000))"
                    : "\(place) still shows \"\(text)\" after \(CDPConnection.seconds(timeLimit))"
            })
        }
    }

    static func explain(_ answer: CDPObject, _ locator: Locator, timeLimit: Double) -> String {
        BrowserPage.explain(answer, locator, timeLimit: timeLimit)
    }

    /// Waits until an element is found, then until `holds` is true of it.
    func expectElement(_ locator: Locator, _ holds: @escaping (CDPObject) -> Bool, _ problem: @escaping (CDPObject) -> String) async throws {
        try await perform { page in
            var last: CDPObject?
            try await eventually(page, {
                last = try page.answer("query", locator)
                guard let answer = last, answer.string("state") == "ok" else { return false }
                return holds(answer)
            }, {
                guard let answer = last else { return "the page did not load within \(CDPConnection.seconds(timeLimit))" }
                if answer.string("state") != "ok" { return Self.explain(answer, locator, timeLimit: timeLimit) }
                return problem(answer)
            })
        }
    }

    /// Waits until a locator finds no element.
    func expectAbsent(_ locator: Locator) async throws {
        try await perform { page in
            var last: CDPObject?
            try await eventually(page, {
                last = try page.answer("count", locator)
                return last?.string("state") == "ok" && last?.int("count") == 0
            }, {
                let found = (last?.strings("elements") ?? []).joined(separator: ", ")
                return "\(locator) is still there after \(CDPConnection.seconds(timeLimit)): \(found)"
            })
        }
    }

    /// Waits until the page's title, URL or path passes a test.
    func expectPage(_ what: String, _ key: String, _ holds: @escaping (String) -> Bool, wanted: String) async throws {
        try await perform { page in
            var last = ""
            try await eventually(page, {
                last = try page.answer("page", nil)?.string(key) ?? last
                return holds(last)
            }, { "the page's \(what) is \"\(last)\", not \(wanted) (waited \(CDPConnection.seconds(timeLimit)))" })
        }
    }

    static func defineChecks(_ step: StepMap<BrowserSteps>) {
        step(#"^I (?:should )?see "(.*?)"(?: within "(.+)")?$"#) { (steps: BrowserSteps, text: String, region: String?) in
            try await steps.expectText(text, within: region, shown: true)
        }
        step(#"^I (?:should not|do not|don't) see "(.*?)"(?: within "(.+)")?$"#) { (steps: BrowserSteps, text: String, region: String?) in
            try await steps.expectText(text, within: region, shown: false)
        }
        step(#"^I (?:should )?see (?:a|an|the) (\#(roleWords)) "(.+?)"(?: within "(.+)")?$"#) {
            (steps: BrowserSteps, word: String, name: String, region: String?) in
            try await steps.expectElement(locator(word, name, first: true).within(Self.region(region)), { _ in true }, { _ in "" })
        }
        step(#"^I (?:should not|do not|don't) see (?:a|an|the) (\#(roleWords)) "(.+?)"(?: within "(.+)")?$"#) {
            (steps: BrowserSteps, word: String, name: String, region: String?) in
            try await steps.expectAbsent(locator(word, name).within(Self.region(region)))
        }
        defineFieldChecks(step)
        definePageChecks(step)
    }

    private static func defineFieldChecks(_ step: StepMap<BrowserSteps>) {
        step(#"^the "(.+?)" field (?:contains|is|shows) "(.*)"$"#) { (steps: BrowserSteps, name: String, value: String) in
            try await steps.expectElement(Locator.parse(name, as: .field), { $0.string("value") == value }) {
                "\($0.string("element") ?? name) contains \"\($0.string("value") ?? "")\", not \"\(value)\""
            }
        }
        step(#"^the "(.+?)" field is empty$"#) { (steps: BrowserSteps, name: String) in
            try await steps.expectElement(Locator.parse(name, as: .field), { $0.string("value") == "" }) {
                "\($0.string("element") ?? name) contains \"\($0.string("value") ?? "")\", not nothing"
            }
        }
        step(#"^the "(.+?)" (checkbox|radio button) is (checked|not checked|unchecked|chosen|not chosen)$"#) {
            (steps: BrowserSteps, name: String, kind: String, state: String) in
            let wanted = state == "checked" || state == "chosen"
            let locator = Locator.parse(name, as: .field, role: kind == "checkbox" ? "checkbox" : "radio")
            try await steps.expectElement(locator, { $0.bool("checked") == wanted }) {
                "\($0.string("element") ?? name) is \(wanted ? "not " : "")\(kind == "checkbox" ? "checked" : "chosen")"
            }
        }
        step(#"^"(.*?)" is selected in "(.+?)"$"#) { (steps: BrowserSteps, option: String, name: String) in
            try await steps.expectElement(Locator.parse(name, as: .field), { ($0.strings("selected") ?? []).contains(option) }) {
                "\($0.string("element") ?? name) has \(($0.strings("selected") ?? []).map { "\"\($0)\"" }.joined(separator: ", ")) selected, not \"\(option)\""
            }
        }
        step(#"^the (\#(roleWords)) "(.+?)" is (disabled|enabled)$"#) { (steps: BrowserSteps, word: String, name: String, state: String) in
            try await steps.expectElement(locator(word, name), { ($0.bool("disabled") == true) == (state == "disabled") }) {
                "\($0.string("element") ?? name) is \(state == "disabled" ? "enabled" : "disabled")"
            }
        }
    }
}
