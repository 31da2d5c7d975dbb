/// What happened when a hook ran.
public struct HookResult: Sendable, Codable, Hashable {
    /// When the hook ran: `before story`, `after step`…
    public var kind: String
    /// Where the hook was registered.
    public var location: SourceLocation
    /// Whether it passed or failed.
    public var status: StepStatus
    /// Why it failed.
    public var error: StepError?
    /// How long it ran, in nanoseconds.
    public var duration: UInt64
    /// What the hook attached or printed, in order.
    public var attachments: [Attachment] = []
}
