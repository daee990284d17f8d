// Generated from schemas/components/TavilyExtract.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/TavilyExtract.schema.json","title":"TavilyExtract params","description":"Extracts the content of web pages with Tavily (RAGFlow TavilyExtractParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"urls":{"description":"The pages to extract: a list of URLs, or one comma-separated string (a reference or template on a canvas node).","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"extract_depth":{"type":"string","description":"basic (default) or advanced.","enum":["basic","advanced"]},"format":{"type":"string","description":"markdown (default) or text.","enum":["markdown","text"]},"api_key":{"type":"string","description":"Tavily API key. Empty: warning; it must be set before the tool can run."},"include_images":{"type":"boolean","description":"Return images (default false)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/TavilyExtract.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.urls !== undefined){
let data0 = data.urls;
const _errs2 = errors;
let valid1 = false;
const _errs3 = errors;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(typeof data1 !== "string"){
const err0 = {instancePath:instancePath+"/urls/" + i0,schemaPath:"#/properties/urls/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.urls.anyOf[0].items.type,parentSchema:schema31.properties.urls.anyOf[0].items,data:data1};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
}
else {
const err1 = {instancePath:instancePath+"/urls",schemaPath:"#/properties/urls/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.urls.anyOf[0].type,parentSchema:schema31.properties.urls.anyOf[0],data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
var _valid0 = _errs3 === errors;
valid1 = valid1 || _valid0;
const _errs7 = errors;
if(typeof data0 !== "string"){
const err2 = {instancePath:instancePath+"/urls",schemaPath:"#/properties/urls/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.urls.anyOf[1].type,parentSchema:schema31.properties.urls.anyOf[1],data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs7 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err3 = {instancePath:instancePath+"/urls",schemaPath:"#/properties/urls/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.urls.anyOf,parentSchema:schema31.properties.urls,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
else {
errors = _errs2;
if(vErrors !== null){
if(_errs2){
vErrors.length = _errs2;
}
else {
vErrors = null;
}
}
}
}
if(data.extract_depth !== undefined){
let data2 = data.extract_depth;
if(typeof data2 !== "string"){
const err4 = {instancePath:instancePath+"/extract_depth",schemaPath:"#/properties/extract_depth/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.extract_depth.type,parentSchema:schema31.properties.extract_depth,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!((data2 === "basic") || (data2 === "advanced"))){
const err5 = {instancePath:instancePath+"/extract_depth",schemaPath:"#/properties/extract_depth/enum",keyword:"enum",params:{allowedValues: schema31.properties.extract_depth.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.extract_depth.enum,parentSchema:schema31.properties.extract_depth,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.format !== undefined){
let data3 = data.format;
if(typeof data3 !== "string"){
const err6 = {instancePath:instancePath+"/format",schemaPath:"#/properties/format/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.format.type,parentSchema:schema31.properties.format,data:data3};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(!((data3 === "markdown") || (data3 === "text"))){
const err7 = {instancePath:instancePath+"/format",schemaPath:"#/properties/format/enum",keyword:"enum",params:{allowedValues: schema31.properties.format.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.format.enum,parentSchema:schema31.properties.format,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.api_key !== undefined){
let data4 = data.api_key;
if(typeof data4 !== "string"){
const err8 = {instancePath:instancePath+"/api_key",schemaPath:"#/properties/api_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.api_key.type,parentSchema:schema31.properties.api_key,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.include_images !== undefined){
let data5 = data.include_images;
if(typeof data5 !== "boolean"){
const err9 = {instancePath:instancePath+"/include_images",schemaPath:"#/properties/include_images/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.include_images.type,parentSchema:schema31.properties.include_images,data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"urls":true,"extract_depth":true,"format":true,"api_key":true,"include_images":true},"dynamicProps":false,"dynamicItems":false};

