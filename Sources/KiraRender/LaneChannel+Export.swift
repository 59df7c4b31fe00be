// `LaneChannel`, the channel types the renderers take, lives with the kernels' inputs in
// KiraLaneJobs (below the per-level kernels); a client of KiraRender sees it through here.
@_exported import KiraLaneJobs
