import App
import Foundation
import POSIX

// The only place that reads argv and the environment; the commands are values in App.
System.exit(PhotoScrollCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
