export default {
  'upload.progress': 'Progreso de la subida',
  'upload.progress_value': 'Subiendo… {{value}}%',
  'validation.file.max_size': 'El archivo supera el tamaño máximo de {{limit}} bytes.',
  'validation.file.required': 'Elige un archivo.',
  'validation.file.empty': 'El archivo está vacío.',
  'file.upload.type.error': 'Tipo de archivo no admitido.',
  'file.upload.dimensions.error': 'Las dimensiones de la imagen no están permitidas.',
  'errors.type': 'Tipo de archivo no admitido.',
  'errors.max_size': 'Archivo demasiado grande.',
  'errors.content_mismatch': 'El contenido del archivo no corresponde a su extensión.',
  'errors.dimensions': 'Las dimensiones de la imagen no están permitidas.',
  'errors.empty': 'El archivo está vacío.',
}
