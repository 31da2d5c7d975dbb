import Foundation
import Testing

/// The binutils and compiler that check the symbol readers from outside:
/// `readelf`, `addr2line`, `clang`. Tests that need one are skipped, with
/// the reason, on a machine without it.
enum Oracle {
    /// The path of `tool` on `PATH`, if it is there.
    static func path(of tool: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether every one of `tools` is on `PATH`.
    static func has(_ tools: String...) -> Bool {
        tools.allSatisfy { path(of: $0) != nil }
    }

    /// Runs `tool` and returns what it printed on standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        // Within a time limit, as every program a test runs.
        let outcome = try Binary.tool(try #require(path(of: tool), "\(tool) is not on PATH"), arguments, timeout: 120)
        try #require(!outcome.isTimedOut, "\(tool) did not finish within 120 seconds")
        return outcome.output
    }

    /// This test process's own executable: a large Swift binary with line
    /// tables, built as `swift build --build-tests` builds it.
    static var testBinary: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// A function symbol as `readelf -s -W` lists it.
    struct Function {
        var name: String
        var address: UInt64
        var size: UInt64
    }

    /// The defined functions of a binary's `.symtab`, with a size, by `readelf`.
    static func functions(in binary: String) throws -> [Function] {
        let listing = try run("readelf", ["-s", "-W", binary])
        guard let table = listing.range(of: "Symbol table '.symtab'") else { return [] }
        return listing[table.upperBound...].split(separator: "\n").compactMap { line in
            // Num: Value Size Type Bind Vis Ndx Name
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 8, words[3] == "FUNC", words[6] != "UND", let address = UInt64(words[1], radix: 16) else { return nil }
            let size = words[2].hasPrefix("0x") ? UInt64(words[2].dropFirst(2), radix: 16) : UInt64(words[2])
            guard let size, size > 0 else { return nil }
            return Function(name: String(words[7]), address: address, size: size)
        }
    }

    /// What `addr2line` says of each address: `(file, line)`, the line 0
    /// when it knows none.
    static func lines(of addresses: [UInt64], in binary: String) throws -> [(file: String, line: Int)] {
        let output = try run("addr2line", ["-e", binary] + addresses.map { "0x" + String($0, radix: 16) })
        return output.split(separator: "\n").map { text in
            // "file:line" or "file:line (discriminator 2)"; "??:0", "file:?".
            let place = text.split(separator: " ").first ?? ""
            guard let colon = place.lastIndex(of: ":") else { return (String(place), 0) }
            return (String(place[..<colon]), Int(place[colon...].dropFirst()) ?? 0)
        }
    }
}
