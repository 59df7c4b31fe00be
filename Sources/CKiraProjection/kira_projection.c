// This target is header-only; SwiftPM needs one source file.
