/** Address search items (Document 2, 2.3, 4.6) and retrieved addresses (4.7): plain JSON. */
import type { AddressItem, RetrievedAddress } from '../repo/model.ts';

export function addressItemOf(i: AddressItem): Record<string, unknown> {
  return { key: i.key, addressType: i.addressType, formattedAddress: i.formattedAddress };
}

export function retrievedAddressOf(
  key: string,
  formattedAddress: string,
  a: RetrievedAddress,
): Record<string, unknown> {
  return {
    key,
    line1: a.line1,
    line2: a.line2,
    line3: a.line3,
    line4: a.line4,
    buildingName: a.buildingName,
    street: a.street,
    provinceName: a.provinceName,
    postcode: a.postcode,
    city: a.city,
    district: a.district,
    country: a.country,
    countryCode3: a.countryCode3,
    addressType: 'Address',
    formattedAddress,
    latitude: a.latitude,
    longitude: a.longitude,
  };
}
