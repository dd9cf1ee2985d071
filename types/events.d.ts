// The event a listener receives, from the target and the event's type: what `Listeners.on`
// (Public/util/listeners.js) hands its handlers. A type the DOM library does not list for that
// target (a custom event, a Server-Sent Event's own type) is a plain Event, or a MessageEvent
// from an EventSource.

type EventFor<T, K extends string> =
  T extends Window ? (K extends keyof WindowEventMap ? WindowEventMap[K] : Event) :
  T extends Document ? (K extends keyof DocumentEventMap ? DocumentEventMap[K] : Event) :
  T extends HTMLElement ? (K extends keyof HTMLElementEventMap ? HTMLElementEventMap[K] : Event) :
  T extends EventSource ? (K extends keyof EventSourceEventMap ? EventSourceEventMap[K] : MessageEvent<string>) :
  T extends MediaQueryList ? (K extends keyof MediaQueryListEventMap ? MediaQueryListEventMap[K] : Event) :
  T extends VisualViewport ? (K extends keyof VisualViewportEventMap ? VisualViewportEventMap[K] : Event) :
  Event;
