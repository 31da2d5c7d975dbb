import Foundation

extension String: StepArgument {
    public init?(stepArgument text: String) { self = text }
}

extension Substring: StepArgument {
    public init?(stepArgument text: String) { self = Substring(text) }
}

extension Bool: StepArgument {
    /// Creates a Boolean from `true`, `false`, `yes` or `no`, in any case.
    public init?(stepArgument text: String) {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes": self = true
        case "false", "no": self = false
        default: return nil
        }
    }
}

/// Integers convert from decimal text with an optional sign.
extension StepArgument where Self: FixedWidthInteger {
    public init?(stepArgument text: String) {
        if let value = Self(text, radix: 10) {
            self = value
        } else if let value = Self(text.trimmingCharacters(in: .whitespaces), radix: 10) {
            self = value
        } else {
            return nil
        }
    }
}

extension Int: StepArgument {}
extension Int8: StepArgument {}
extension Int16: StepArgument {}
extension Int32: StepArgument {}
extension Int64: StepArgument {}
extension UInt: StepArgument {}
extension UInt8: StepArgument {}
extension UInt16: StepArgument {}
extension UInt32: StepArgument {}
extension UInt64: StepArgument {}

extension Double: StepArgument {
    public init?(stepArgument text: String) { self.init(text.trimmingCharacters(in: .whitespaces)) }
}

extension Float: StepArgument {
    public init?(stepArgument text: String) { self.init(text.trimmingCharacters(in: .whitespaces)) }
}

extension Decimal: StepArgument {
    /// Creates a decimal from text such as `12.50`, with no other characters.
    public init?(stepArgument text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty,
            trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = value
    }
}

extension Optional: StepArgument where Wrapped: StepArgument {
    /// Creates a wrapped value from text; use ``convert(_:)`` for groups that
    /// took no part in the match, which become nil.
    public init?(stepArgument text: String) {
        guard let value = Wrapped(stepArgument: text) else { return nil }
        self = .some(value)
    }

    public static var stepArgumentName: String { Wrapped.stepArgumentName }

    public static var takesAttachment: Bool { Wrapped.takesAttachment }

    public static var stepArgumentValues: [String]? { Wrapped.stepArgumentValues }

    public static func convert(_ input: StepArgumentInput) -> Self? {
        switch input {
        case .text(nil), .attachment(nil): .some(.none)
        default: Wrapped.convert(input).map { .some($0) }
        }
    }
}

extension DataTable: StepArgument {
    public init?(stepArgument text: String) { nil }

    public static var takesAttachment: Bool { true }

    public static func convert(_ input: StepArgumentInput) -> DataTable? {
        if case .attachment(.dataTable(let table)) = input { return table }
        return nil
    }
}

extension DocString: StepArgument {
    public init?(stepArgument text: String) { nil }

    public static var takesAttachment: Bool { true }

    public static func convert(_ input: StepArgumentInput) -> DocString? {
        if case .attachment(.docString(let docString)) = input { return docString }
        return nil
    }
}
