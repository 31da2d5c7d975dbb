extension StepMap {
    /// Accepts every `As …` line (`As a hungry customer`) with a definition
    /// that does nothing.
    ///
    /// Every line of a story is a step, `As` lines too (Simon's rule): an
    /// `As` line no definition matches is undefined, as any other step. A
    /// project whose roles are only words for the reader accepts them all
    /// with this one line in any step class:
    ///
    /// ```swift
    /// static func define(_ step: StepMap<ShopSteps>) {
    ///     step.acceptsRoles()
    /// }
    /// ```
    /// The pattern is `^As .+$`, so it also matches any other step whose
    /// text after the keyword starts with `as ` (`Given as soon as…`);
    /// define such steps before it to win the match (the first registered wins).
    public func acceptsRoles(file: String = #filePath, line: Int = #line) {
        self("^As .+$", file: file, line: line) { _ in }
    }
}
