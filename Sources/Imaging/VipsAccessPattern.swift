import Foundation

/// How an image's pixels will be read: `sequential` streams rows top to bottom with little memory.
enum VipsAccessPattern {
    case random, sequential
}
