// In-memory CRI message types (runtime.v1 names; v1alpha2 decodes into the same shapes).
// Generated from proto/ by scripts/gen-proto.mjs; see src/cri/gen/.
export * from './gen/types';
