import App
import Foundation

// The only place that reads argv and the environment; the commands are values in App.
exit(PhotoScrollCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
