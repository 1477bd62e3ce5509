// Operations of this resource: see ../operation.ts. (To be filled in while converting the module.)
export {};
