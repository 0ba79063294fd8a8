export default {
  'upload.progress': 'Upload progress',
  'upload.progress_value': 'Uploading… {{value}}%',
  'validation.file.max_size': 'The file is larger than the maximum of {{limit}} bytes.',
  'validation.file.required': 'Choose a file.',
  'validation.file.empty': 'The file is empty.',
  'file.upload.type.error': 'Unsupported file type.',
  'file.upload.dimensions.error': 'The image dimensions are not allowed.',
  'errors.type': 'Unsupported file type.',
  'errors.max_size': 'File too large.',
  'errors.content_mismatch': 'The file content does not match its extension.',
  'errors.dimensions': 'The image dimensions are not allowed.',
  'errors.empty': 'The file is empty.',
}
