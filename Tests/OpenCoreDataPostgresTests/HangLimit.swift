import Testing

extension TimeLimitTrait.Duration {
    /// The time limit of a test that only guards against a hang. A test's clock starts when the
    /// run schedules it, not when it gets a thread: on two cores, behind the synchronous tests
    /// running meanwhile, CI runs saw tests wait about 7 minutes before their first line, so a
    /// tighter limit fails tests that never hung.
    static var hang: Self { .minutes(10) }
}
