/** identifier a resource's validator is exported under in generated code: folder-status → folderStatus */
export function exportName(resource: string): string {
  return resource.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
