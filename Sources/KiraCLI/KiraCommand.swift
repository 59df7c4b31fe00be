import ArgumentParser
@main struct KiraCommand: ParsableCommand {}
