import Foundation

/// The official Gherkin test data, read where it lives (`<conformance>/gherkin`,
/// see `Conformance`).
enum GherkinFixtures {
    /// The official `gherkin` folder.
    static let root = URL(fileURLWithPath: Conformance.path("gherkin"))

    /// The names of the `.feature` files in `good` or `bad`, sorted.
    static func features(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".feature") }.sorted()
    }

    /// Reads a fixture file as UTF-8, byte for byte.
    static func read(_ folder: String, _ name: String) throws -> String {
        let data = try Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(name))
        return String(decoding: data, as: UTF8.self)
    }

    /// The non-empty lines of an NDJSON fixture.
    static func ndjson(_ folder: String, _ name: String) throws -> [String] {
        try read(folder, name).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// Re-serialises a JSON text with sorted keys, so equal objects compare equal as text.
    static func canonical(_ json: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return "invalid JSON: " + json }
        return String(decoding: data, as: UTF8.self)
    }
}
