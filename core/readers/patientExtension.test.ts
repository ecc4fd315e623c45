import { describe, expect, test } from 'vitest';
import { patientExtensionName } from './patientExtension.ts';

describe('patientExtensionName', () => {
  test('reads the name at the end of the URL, whatever the prefix (DEC-D3-30)', () => {
    expect(patientExtensionName('https://ref.example/extension/patient/insurer')).toBe('insurer');
    expect(patientExtensionName('https://other.example/fhir/ref/extension/patient/registrationid')).toBe(
      'registrationid',
    );
  });
  test('gives undefined for another URL or a value that is not text', () => {
    expect(patientExtensionName('https://ref.example/extension/coverage/insurer')).toBeUndefined();
    expect(patientExtensionName('https://ref.example/extension/patient/insurer/x/')).toBeUndefined();
    expect(patientExtensionName(42)).toBeUndefined();
  });
});
