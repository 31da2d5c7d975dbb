extension Snippet {
    /// The Swift types a snippet gives the numbers of a step: the ones the
    /// project's own step definitions take for the same kind of value, so
    /// that a snippet for `I pay 2.50 euros` takes a `Decimal` in a project
    /// that counts money in `Decimal`s.
    struct Numbers: Hashable, Sendable {
        /// The type of a whole number (`12`).
        var integer = "Int"
        /// The type of a number with decimals (`2.50`).
        var decimal = "Double"

        /// `Int` and `Double`, for a project with no numbers in its steps.
        static let standard = Numbers()

        /// The integer types a step closure may take.
        static let integerTypes: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
        /// The decimal types a step closure may take, the one a snippet
        /// prefers first.
        static let decimalTypes = ["Decimal", "Double", "Float"]

        /// The types the project's own definitions (a step library's do not
        /// count) take for decimals: any `Decimal` wins, as money is the
        /// value that must not be rounded, then the most used of `Double`
        /// and `Float`. Whole numbers stay `Int` unless no definition takes
        /// an `Int` and some take another integer type.
        static func used(in registry: StepRegistry) -> Numbers {
            registry.undefinedStepAdvice.value.numbers
        }

        /// The types the definitions take, as ``used(in:)`` tells them.
        static func used(in definitions: [StepDefinition]) -> Numbers {
            var counts: [String: Int] = [:]
            for definition in definitions where !definition.isFromLibrary {
                for name in definition.parameterNames { counts[name, default: 0] += 1 }
            }
            var numbers = Numbers()
            if counts["Decimal", default: 0] > 0 {
                numbers.decimal = "Decimal"
            } else if let most = decimalTypes.max(by: { counts[$0, default: 0] < counts[$1, default: 0] }), counts[most, default: 0] > 0 {
                numbers.decimal = most
            }
            // Int, unless the project's steps take no Int but another
            // integer type (all Int64, say).
            let integers = counts.filter { integerTypes.contains($0.key) }.sorted { $0.key < $1.key }
            if counts["Int", default: 0] == 0, let most = integers.max(by: { $0.value < $1.value }) {
                numbers.integer = most.key
            }
            return numbers
        }
    }

    /// The snippet for a step as a run shows it: in the step class its
    /// words belong to, with the number types the project's steps use.
    static func suggested(for step: Step, in registry: StepRegistry, style: Style = .regex) -> Snippet {
        Snippet(for: step, stepClass: stepClass(for: step, in: registry), style: style, numbers: .used(in: registry))
    }
}
