import Foundation

/// A small checker for the Cucumber Messages JSON Schema: required
/// properties, basic types, enums, `$ref`s and array items. It is not a full
/// JSON Schema validator; it checks what a reader of the stream relies on.
struct SchemaChecker {
    /// The whole schema document.
    let root: [String: Any]

    /// Loads the schema at a path.
    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        root = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The problems with one envelope, each naming the JSON path; empty when
    /// the envelope conforms.
    func problems(in envelope: Any) -> [String] {
        var problems: [String] = []
        check(envelope, against: root, base: root, path: "$", problems: &problems)
        if let object = envelope as? [String: Any], object.count != 1 {
            problems.append("$: an envelope holds exactly one message, not \(object.count)")
        }
        return problems
    }

    private func check(_ value: Any, against schema: [String: Any], base: [String: Any], path: String, problems: inout [String]) {
        if let reference = schema["$ref"] as? String {
            guard let (target, targetBase) = resolve(reference, base: base) else {
                problems.append("\(path): cannot resolve \(reference)")
                return
            }
            check(value, against: target, base: targetBase, path: path, problems: &problems)
            return
        }
        if let type = schema["type"] as? String, !Self.value(value, hasType: type) {
            problems.append("\(path): expected \(type), got \(Swift.type(of: value))")
            return
        }
        if let allowed = schema["enum"] as? [String], let text = value as? String, !allowed.contains(text) {
            problems.append("\(path): \"\(text)\" is not one of \(allowed)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required \"\(key)\"")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, member) in object {
                guard let propertySchema = properties[key] as? [String: Any] else {
                    if schema["additionalProperties"] as? Bool == false {
                        problems.append("\(path): unknown property \"\(key)\"")
                    }
                    continue
                }
                check(member, against: propertySchema, base: base, path: "\(path).\(key)", problems: &problems)
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() {
                check(item, against: items, base: base, path: "\(path)[\(index)]", problems: &problems)
            }
        }
    }

    /// Finds a `$ref`: `./X.schema.json` in the root's `$defs`, or
    /// `#/definitions/Y` in the schema that holds the reference.
    private func resolve(_ reference: String, base: [String: Any]) -> ([String: Any], [String: Any])? {
        let defs = root["$defs"] as? [String: Any] ?? [:]
        // A file beside this one: `./X.schema.json`, or (the run hook
        // messages) `X.schema.json`.
        if reference.hasPrefix("./") || reference.hasSuffix(".schema.json") && !reference.contains("/") {
            let id = "https://cucumber.io/schema/" + (reference.hasPrefix("./") ? reference.dropFirst(2) : reference[...])
            guard let target = defs[id] as? [String: Any] else { return nil }
            return (target, target)
        }
        if reference.hasPrefix("#/definitions/") {
            let name = String(reference.dropFirst("#/definitions/".count))
            guard let target = (base["definitions"] as? [String: Any])?[name] as? [String: Any] else { return nil }
            return (target, base)
        }
        return nil
    }

    private static func value(_ value: Any, hasType type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean": (value as? NSNumber).map(isBoolean) ?? false
        case "integer": (value as? NSNumber).map { !Self.isBoolean($0) && $0.doubleValue == $0.doubleValue.rounded() } ?? false
        case "number": (value as? NSNumber).map { !Self.isBoolean($0) } ?? false
        default: true
        }
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
