import Testing

extension TimeLimitTrait.Duration {
    /// The time limit of a test that only guards against a hang; why it is long:
    /// OpenCoreDataTests' Support/HangLimit.swift (the two test targets share no code).
    static var hang: Self { .minutes(10) }
}
