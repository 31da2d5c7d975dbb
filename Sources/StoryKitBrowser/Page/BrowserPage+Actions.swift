import Foundation
import StoryKit

/// Actions on elements: each waits until its element is attached, visible,
/// enabled, stable and receives the pointer (Playwright's actionability
/// rule), up to a time limit, and fails naming what it waited for.
extension BrowserPage {
    /// Runs a page-script function until it answers `state: ok`, checking
    /// again when the page changes (or is between documents) while the
    /// element is not ready.
    func waitFor(_ expression: String, _ locator: Locator?, timeLimit: Double) async throws -> CDPObject {
        let began = Date()
        let deadline = began.addingTimeInterval(timeLimit)
        var last: CDPObject?
        while true {
            if let answer = CDPObject(object: try evaluateIfAlive(expression)) {
                if answer.string("state") == "ok" { return answer }
                last = answer
            }
            guard Date() < deadline else { break }
            try await settle(waited: Date().timeIntervalSince(began))
        }
        throw BrowserError(Self.explain(last, locator, timeLimit: timeLimit))
    }

    /// Waits after a check that did not hold: until the page's document
    /// changes (its elements, attributes or text, input, history), at most
    /// 30 ms (what is not seen as a change, a style sheet or a script's
    /// property, is checked again then); 5 ms while it is between documents;
    /// 30 ms here when the page's timers are its own (they may never fire).
    /// After `waited` passes a quarter second it waits the 30 ms whatever
    /// changes: a page that changes all the time is not checked non-stop.
    func settle(waited: TimeInterval) async throws {
        try Task.checkCancellation()
        if waited > 0.25 {
            try await Task.sleep(nanoseconds: 30_000_000)
            return
        }
        guard let answer = try evaluateIfAlive(PageScript.call("settle", "30")) else {
            return try await Task.sleep(nanoseconds: 5_000_000)
        }
        if answer.boolValue == nil { try await Task.sleep(nanoseconds: 30_000_000) }
    }

    /// Why a query did not succeed, with the closest candidates.
    static func explain(_ answer: CDPObject?, _ locator: Locator?, timeLimit: Double) -> String {
        let limit = CDPConnection.seconds(timeLimit)
        guard let answer, let locator else { return "the page did not load within \(limit)" }
        let target = answer.bool("inScope") == true ? (locator.scope ?? locator) : locator
        let element = answer.string("element") ?? "\(target)"
        switch answer.string("state") ?? "" {
        case "missing":
            var text = "found no \(target.description.dropFirst(target.description.hasPrefix("an ") ? 3 : 2)) within \(limit)"
            let hidden = answer.strings("hidden") ?? []
            if !hidden.isEmpty { text += "; hidden ones match: " + hidden.joined(separator: ", ") }
            let near = Candidates.closest(to: target.name, in: answer.strings("candidates") ?? [])
            text += near.isEmpty ? "; the page shows nothing of that kind" : "; the closest on the page:\n" + near.map { "  " + $0 }.joined(separator: "\n")
            return text
        case "ambiguous":
            let count = answer.int("count") ?? 0
            let list = (answer.strings("elements") ?? []).map { "  " + $0 }.joined(separator: "\n")
            return "\(count) elements match \(target):\n\(list)\nname one more precisely, search within a region, or say \"the first\""
        case "disabled": return "\(element) stayed disabled for \(limit)"
        case "not editable": return "\(element) cannot be typed into (read-only, or not a text field)"
        case "moving": return "\(element) kept moving for \(limit) (an animation that does not end?)"
        case "detached": return "\(element) kept being replaced for \(limit)"
        case "covered": return "\(element) is covered by \(answer.string("by") ?? "another element") (for \(limit))"
        default: return "\(element): \(answer.string("state") ?? "no answer") after \(limit)"
        }
    }

    /// Waits until the element is actionable and returns the page script's
    /// answer: the point to click (`x`, `y`) and whether it is `checked`.
    /// Only a pointer action waits for the element to be stable (an
    /// animation frame apart); `focus` focuses it and selects its text.
    func actionable(_ locator: Locator, pointer: Bool, editable: Bool = false, focus: Bool = false, timeLimit: Double) async throws -> CDPObject {
        let fields = locator.fields + [("enabled", .bool(true)), ("pointer", .bool(pointer)), ("editable", .bool(editable)), ("focus", .bool(focus))]
        let json = JSONValue.object(fields).text
        return try await waitFor(PageScript.call("act", json), locator, timeLimit: timeLimit)
    }

    static func point(_ answer: CDPObject) -> (x: Double, y: Double) {
        (answer.double("x") ?? 0, answer.double("y") ?? 0)
    }

    /// Clicks an element in its middle, as a mouse does.
    public func click(_ locator: Locator, timeLimit: Double) async throws {
        let answer = try await actionable(locator, pointer: true, timeLimit: timeLimit)
        try clickAt(Self.point(answer))
    }

    /// Moves the mouse to a point, presses and releases it: sent at once,
    /// handled by the browser in order.
    func clickAt(_ point: (x: Double, y: Double)) throws {
        let at: CDPParameters = [("x", .double(point.x)), ("y", .double(point.y))]
        let press: CDPParameters = [("button", .string("left")), ("clickCount", .int(1))]
        try connection.callAll([
            ("Input.dispatchMouseEvent", [("type", .string("mouseMoved"))] + at),
            ("Input.dispatchMouseEvent", [("type", .string("mousePressed"))] + at + press),
            ("Input.dispatchMouseEvent", [("type", .string("mouseReleased"))] + at + press),
        ], session: session)
    }

    /// Replaces a field's text with `text`, as typing does (input events).
    public func fill(_ locator: Locator, with text: String, timeLimit: Double) async throws {
        _ = try await actionable(locator, pointer: false, editable: true, focus: true, timeLimit: timeLimit)
        if text.isEmpty {
            _ = try evaluate(PageScript.call("clearTarget"))
        } else {
            try call("Input.insertText", [("text", .string(text))])
        }
    }

    /// Checks or unchecks a checkbox (or chooses a radio button) by clicking it.
    public func setChecked(_ locator: Locator, _ checked: Bool, timeLimit: Double) async throws {
        let answer = try await actionable(locator, pointer: true, timeLimit: timeLimit)
        if answer.bool("checked") == checked { return }
        try clickAt(Self.point(answer))
        if try evaluateIfAlive(PageScript.call("checked"))?.boolValue == !checked {
            throw BrowserError("clicking \(locator) did not \(checked ? "check" : "uncheck") it")
        }
    }

    /// Selects the option with a text (or value) in a select.
    public func select(_ option: String, in locator: Locator, timeLimit: Double) async throws {
        _ = try await actionable(locator, pointer: false, timeLimit: timeLimit)
        let answer = CDPObject(object: try evaluate(PageScript.call("selectOption", JSONValue.quoted(option)))) ?? CDPObject(.object([]))
        let options = (answer.strings("options") ?? []).map { "\"\($0)\"" }.joined(separator: ", ")
        switch answer.string("state") {
        case "ok": return
        case "no option": throw BrowserError("\(locator) has no option \"\(option)\"; its options: \(options)")
        case "ambiguous option": throw BrowserError("several options of \(locator) match \"\(option)\": \(options)")
        default: throw BrowserError("\(answer.string("element") ?? "\(locator)") is not a select: fill it in instead")
        }
    }

    /// Presses a key (`Enter`, `Tab`, `Escape`, `ArrowDown`, a letter…) in the focused element.
    public func press(_ key: String) throws {
        guard let info = Keys.info(key) else { throw BrowserError("no key named \(key); keys: \(Keys.names)") }
        let key: CDPParameters = [("key", .string(info.key)), ("code", .string(info.code)), ("windowsVirtualKeyCode", .int(Int64(info.keyCode)))]
        var down: CDPParameters = [("type", .string(info.text.isEmpty ? "rawKeyDown" : "keyDown"))] + key + [("nativeVirtualKeyCode", .int(Int64(info.keyCode)))]
        if !info.text.isEmpty { down.append(("text", .string(info.text))) }
        try call("Input.dispatchKeyEvent", down)
        try call("Input.dispatchKeyEvent", [("type", .string("keyUp"))] + key)
    }

    /// Types text into the focused element.
    public func type(_ text: String) throws {
        try call("Input.insertText", [("text", .string(text))])
    }
}

/// The keys a story can press by name.
enum Keys {
    struct Info {
        var key: String
        var code: String
        var keyCode: Int
        var text: String
    }

    static let named: [String: Info] = [
        "Enter": Info(key: "Enter", code: "Enter", keyCode: 13, text: "\r"),
        "Tab": Info(key: "Tab", code: "Tab", keyCode: 9, text: ""),
        "Escape": Info(key: "Escape", code: "Escape", keyCode: 27, text: ""),
        "Backspace": Info(key: "Backspace", code: "Backspace", keyCode: 8, text: ""),
        "Delete": Info(key: "Delete", code: "Delete", keyCode: 46, text: ""),
        "Space": Info(key: " ", code: "Space", keyCode: 32, text: " "),
        "ArrowUp": Info(key: "ArrowUp", code: "ArrowUp", keyCode: 38, text: ""),
        "ArrowDown": Info(key: "ArrowDown", code: "ArrowDown", keyCode: 40, text: ""),
        "ArrowLeft": Info(key: "ArrowLeft", code: "ArrowLeft", keyCode: 37, text: ""),
        "ArrowRight": Info(key: "ArrowRight", code: "ArrowRight", keyCode: 39, text: ""),
        "Home": Info(key: "Home", code: "Home", keyCode: 36, text: ""),
        "End": Info(key: "End", code: "End", keyCode: 35, text: ""),
        "PageUp": Info(key: "PageUp", code: "PageUp", keyCode: 33, text: ""),
        "PageDown": Info(key: "PageDown", code: "PageDown", keyCode: 34, text: ""),
    ]

    static var names: String { named.keys.sorted().joined(separator: ", ") + ", or one letter or digit" }

    /// A key by name (`Enter`, `escape`, `Arrow Down`) or a single character.
    static func info(_ name: String) -> Info? {
        let compact = name.replacingOccurrences(of: " ", with: "").lowercased()
        if let match = named.first(where: { $0.key.lowercased() == compact || (compact == "return" && $0.key == "Enter") || (compact == "esc" && $0.key == "Escape") }) {
            return match.value
        }
        guard name.count == 1, let character = name.first, let ascii = character.uppercased().unicodeScalars.first?.value, ascii < 128 else { return nil }
        let code = character.isLetter ? "Key\(character.uppercased())" : character.isNumber ? "Digit\(character)" : ""
        return Info(key: name, code: code, keyCode: Int(ascii), text: name)
    }
}
