#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns mangled Swift symbol names into the names a user reads, with
/// the Swift runtime's own demangler.
enum SwiftDemangler {
    @_silgen_name("swift_demangle")
    private static func swiftDemangle(
        _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
        _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
    ) -> UnsafeMutablePointer<CChar>?

    /// The demangled name (`closure #1 in static Steps.define(_:)`), or
    /// the name as given when it is no Swift symbol (a C function's, say).
    static func demangle(_ name: String) -> String {
        guard isSwiftSymbol(name) else { return name }
        let demangled = name.withCString { swiftDemangle($0, strlen($0), nil, nil, 0) }
        guard let demangled else { return name }
        defer { free(demangled) }
        return String(cString: demangled)
    }

    /// Whether `name` is a mangled Swift name (`$s…`, or an older `_T…`).
    static func isSwiftSymbol(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") || name.hasPrefix("_T0")
    }

    /// The module a mangled Swift name belongs to (`StoryKit` for
    /// `$s8StoryKit…`, `Swift` for the standard library's `$ss…` and
    /// `$sS…`); nil when the name does not start with a plain module name.
    static func module(of name: String) -> String? {
        var rest = Substring(name)
        for prefix in ["_$s", "$s", "$S"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        guard rest.count < name.count else { return nil }
        if rest.hasPrefix("s") || rest.hasPrefix("S") { return "Swift" }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.hasPrefix("0"), let length = Int(digits), length > 0 else { return nil }
        let identifier = rest.dropFirst(digits.count).prefix(length)
        return identifier.count == length ? String(identifier) : nil
    }
}
