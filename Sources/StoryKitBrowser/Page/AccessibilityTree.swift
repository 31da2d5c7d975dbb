import Foundation
import StoryKit

/// The accessibility tree `Accessibility.getFullAXTree` gives, rendered as
/// a story author reads it: one line per node with a role, its name, value
/// and states (`button "Sign in" disabled`), children indented; ignored
/// and unnamed generic nodes leave only their children.
struct AccessibilityTree {
    struct Node {
        var role: String
        var name: String
        var value: String
        var states: [String]
        var children: [String]
        var isShown: Bool
    }

    var nodes: [String: Node] = [:]
    var root: String?
    /// The most lines rendered.
    var lineLimit = 400

    init(nodes list: [JSONValue]) {
        for raw in list {
            guard let id = raw["nodeId"]?.stringValue else { continue }
            let role = Self.text(raw["role"])
            let name = Self.text(raw["name"])
            let ignored = raw["ignored"]?.boolValue ?? false
            var states: [String] = []
            for property in raw["properties"]?.arrayValue ?? [] {
                guard let key = property["name"]?.stringValue else { continue }
                let value = Self.text(property["value"])
                if ["focused", "disabled", "required", "invalid"].contains(key), value == "true" { states.append(key) }
                if ["checked", "selected", "expanded", "pressed"].contains(key) { states.append(value == "true" ? key : "not \(key)") }
                if key == "level" { states.append("level \(value)") }
            }
            let hidden = ignored || ["none", "generic", "InlineTextBox", "LineBreak", "RootWebArea"].contains(role) && name.isEmpty
            nodes[id] = Node(
                role: role == "StaticText" ? "text" : role, name: name, value: Self.text(raw["value"]), states: states,
                children: raw["childIds"]?.arrayValue?.compactMap(\.stringValue) ?? [], isShown: !hidden && role != "InlineTextBox")
            if root == nil { root = id }
        }
    }

    private static func text(_ value: JSONValue?) -> String {
        guard let inner = value?["value"] else { return "" }
        switch inner {
        case .string(let string): return string
        case .bool(let flag): return flag ? "true" : "false"
        default: return inner.text
        }
    }

    /// The tree as indented lines.
    func rendered() -> String {
        var lines: [String] = []
        if let root { render(root, depth: 0, into: &lines) }
        if lines.count >= lineLimit { lines.append("… (more than \(lineLimit) lines)") }
        return lines.isEmpty ? "(an empty page)" : lines.joined(separator: "\n")
    }

    private func render(_ id: String, depth: Int, into lines: inout [String]) {
        guard let node = nodes[id], lines.count < lineLimit else { return }
        var childDepth = depth
        if node.isShown {
            var line = String(repeating: "  ", count: depth) + node.role
            if !node.name.isEmpty { line += " \"\(node.name)\"" }
            if !node.value.isEmpty { line += " value=\"\(node.value)\"" }
            if !node.states.isEmpty { line += " " + node.states.joined(separator: " ") }
            lines.append(line)
            childDepth += 1
        }
        // A text node whose only child repeats it adds nothing.
        if node.role == "text" { return }
        for child in node.children { render(child, depth: childDepth, into: &lines) }
    }
}
