import Foundation

/// A type whose values can be made from the text a capture group matched, so
/// a step closure can take it as a parameter.
///
/// `String`, `Substring`, every integer type, `Double`, `Float`, `Decimal`,
/// `Bool`, `Optional`s of these, ``DataTable`` and ``DocString`` conform
/// already. An enum with raw values only has to declare the conformance:
///
/// ```swift
/// enum Mark: String, StepArgument { case x, o }
/// ```
///
/// Any other type conforms by implementing ``init(stepArgument:)``.
public protocol StepArgument: SendableMetatype {
    /// Creates a value from the text a capture group matched, or returns nil
    /// when the text does not describe a value of this type.
    init?(stepArgument text: String)

    /// The name of the type in conversion errors, such as `Int`.
    static var stepArgumentName: String { get }

    /// Converts one input of a step, returning nil when it does not convert.
    ///
    /// The default implementation converts captured text with
    /// ``init(stepArgument:)``; `Optional`, ``DataTable`` and ``DocString``
    /// implement it themselves.
    static func convert(_ input: StepArgumentInput) -> Self?

    /// Whether this type takes the step's doc string or data table instead of
    /// a capture group. Only the last parameter of a step closure may.
    static var takesAttachment: Bool { get }

    /// The texts that convert, for conversion errors to list: an enum's raw
    /// values when it is `CaseIterable`; nil when there are too many to list.
    static var stepArgumentValues: [String]? { get }
}

extension StepArgument {
    public static var stepArgumentName: String { String(describing: Self.self) }

    public static var takesAttachment: Bool { false }

    public static var stepArgumentValues: [String]? { nil }

    public static func convert(_ input: StepArgumentInput) -> Self? {
        switch input {
        case .text(let text): text.flatMap(Self.init(stepArgument:))
        case .value(let value, let text): value as? Self ?? text.flatMap(Self.init(stepArgument:))
        case .attachment: nil
        }
    }
}

extension StepArgument where Self: RawRepresentable & CaseIterable, RawValue: StepArgument {
    /// Every case's raw value, for the conversion error to list.
    public static var stepArgumentValues: [String]? { allCases.map { String(describing: $0.rawValue) } }
}

extension StepArgument where Self: RawRepresentable, RawValue: StepArgument {
    /// Creates the case whose raw value the text converts to; a `String` raw
    /// value is also found in lower case, or in any case for `CaseIterable`
    /// enums.
    public init?(stepArgument text: String) {
        guard let raw = RawValue(stepArgument: text) else { return nil }
        if let value = Self(rawValue: raw) {
            self = value
        } else if let lowered = RawValue(stepArgument: text.lowercased()), let value = Self(rawValue: lowered) {
            self = value
        } else if let value = (Self.self as? any CaseIterable.Type).flatMap({
            Self.caseInsensitiveCase(of: $0, matching: text)
        }) {
            self = value
        } else {
            return nil
        }
    }

    private static func caseInsensitiveCase(
        of type: any CaseIterable.Type, matching text: String
    ) -> Self? {
        func find<C: CaseIterable>(_: C.Type) -> Self? {
            C.allCases.lazy.compactMap { $0 as? Self }.first {
                String(describing: $0.rawValue).caseInsensitiveCompare(text) == .orderedSame
            }
        }
        return find(type)
    }
}
