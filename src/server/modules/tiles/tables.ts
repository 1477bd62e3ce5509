/** Rows of the tiles module (migration 2026-11-22-06-tiles). */
export interface InterfaceTable {
  id: string;
  project_id: number;
  name: string;
  created_at: string;
}

export interface TabTable {
  id: string;
  interface_id: string;
  name: string;
  sort_order: number;
  created_at: string;
}

export interface TileTable {
  id: string;
  tab_id: string;
  name: string;
  type: string;
  /** JSON {x,y,width,height}. */
  position: string;
  context: string | null;
  /** JSON table_tile or plot_tile, by type. */
  settings: string | null;
  /** The logs API filter of the logs the tile shows; null: all (migration 2026-11-27-05-tile-filters). */
  filter: string | null;
  created_by: string | null;
  /** JSON snapshot {name,type,position,context,settings,filter} saved by POST /v0/tile/{id}/checkpoint. */
  checkpoint: string | null;
  checkpoint_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TilesTables {
  interfaces: InterfaceTable;
  tabs: TabTable;
  tiles: TileTable;
}
