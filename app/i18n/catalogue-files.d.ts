declare module 'virtual:catalogue-files' {
  const files: import('./vite-catalogues').CatalogueFiles
  export default files
}
