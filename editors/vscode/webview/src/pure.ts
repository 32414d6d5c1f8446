// The DOM-free modules, bundled for the node unit tests (build.mjs → out/pure.mjs).
export * from "./changes";
export * from "./completion";
export * from "./format";
export * from "./markdown";
export * from "./model";
export * from "./reduce";
export * from "./updates";
export { linkLocation } from "./view/links";
