/// A step class shipped as a library for others' stories (`ProcessSteps`,
/// `HTTPSteps`, `StubServiceSteps`): its definitions that no story used
/// are not listed after a run or by `check` (they are noise to a user who
/// did not write them) unless `--show-library-unused` asks.
public protocol StepLibrary: StepDefinitions {}
